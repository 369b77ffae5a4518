import { createHash } from 'node:crypto';

/** The ids sessions get (UUIDs; any URL-safe token up to 128 characters): never a key pattern, hash tag, separator or control character. */
export const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The names of the cluster's keys and channels, under its prefix. */
export type ClusterKeys = ReturnType<typeof clusterKeys>;

/** The names of the cluster's keys and channels under `prefix`, for the process whose instance id is `origin`. */
export function clusterKeys(prefix: string, origin: string) {
  return {
    prefix,
    sessions: `${prefix}sessions`,
    session: (id: string) => `${prefix}s:${id}`,
    events: (id: string) => `${prefix}e:${id}`,
    state: (id: string) => `${prefix}st:${id}`,
    subs: (id: string) => `${prefix}sub:${id}`,
    /** An owner's index, unprefixed (the session hash names it): its principal or address hashed, so no caller's text becomes a key. */
    owner: (owner: string) => `o:${createHash('sha256').update(owner).digest('hex').slice(0, 32)}`,
    ended: `${prefix}ended`,
    changes: `${prefix}changes`,
    ev: (id: string) => `${prefix}ev:${id}`,
    getStream: (id: string) => `${prefix}gs:${id}`,
    /** Listened on by this process's subscriber while it runs: a claim naming it is this process's (see `claimStream`). */
    alive: `${prefix}alive:${origin}`,
    relay: (instance: string) => `${prefix}rt:${instance}`,
  };
}
