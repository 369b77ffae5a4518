import type { MemberAccess } from '@toolwright/core';
import { roundCaller } from '../roundtrip/roundCaller';

/**
 * Who is calling, as a key: the authenticated client (`authInfo.clientId`, with the user
 * `authInfo.extra.sub` when the token names one), else the 2025-era session, else
 * `'anonymous'` (stdio, or unauthenticated stateless HTTP: one caller as far as the server can tell).
 * A token that names no user (no `extra.sub`, or an empty one) is keyed as its sessions, tasks and
 * round states are bound (`roundCaller`: the client and a digest of the token), so two API keys of
 * one client are two callers. The ids are escaped (see `keyPart`), so no client id or user can pose
 * as another pair; only a key with a user holds an unescaped `/`.
 */
export function callerKey(access: Pick<MemberAccess, 'authInfo' | 'sessionId'>): string {
  const auth = access.authInfo;
  if (auth) {
    const sub = auth.extra?.sub;
    if (typeof sub !== 'string' || sub === '') return keyPart(roundCaller(auth) ?? '');
    const client = `client:${keyPart(String(auth.clientId))}`;
    return sub !== auth.clientId ? `${client}/user:${keyPart(sub)}` : client;
  }
  if (access.sessionId !== undefined) return `session:${keyPart(access.sessionId)}`;
  return 'anonymous';
}

/**
 * An id as a part of a key: `%`, `/` and space (the separators of the middleware's keys) as
 * `%25`, `%2F`, `%20`, everything else as it is. Without it client `a/user:b` with no user
 * and client `a` with user `b` had one key, and shared a cache and a rate limit.
 */
function keyPart(id: string): string {
  return id.replace(/[% /]/g, (c) => (c === '%' ? '%25' : c === '/' ? '%2F' : '%20'));
}
