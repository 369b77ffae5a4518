import type { RedisCluster } from './createRedisCluster';

/** The store `@toolwright/oauth` keeps its state in (its `OAuthStore`), on Redis. */
export interface RedisOAuthStore {
  /** The value at `key`, or undefined (absent or expired). */
  get(key: string): Promise<string | undefined>;
  /** Sets `key` with a time to live (`SET EX`). */
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Sets `key` only when absent (`SET NX EX`); true when this call set it. */
  add(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Removes `key`. */
  delete(key: string): Promise<void>;
}

/**
 * `createOAuthServer({ store })` on the cluster's Redis, so that every instance answers every
 * step of a sign-in (authorize on one, token on another) and a code or refresh token is used
 * once across all of them: `add` is `SET NX`. Keys are `<prefix>oauth:<key>`, each with its TTL.
 * Give every instance the same `signingKey` and `secret` too.
 */
export function createRedisOAuthStore(cluster: Pick<RedisCluster, 'redis' | 'prefix'>): RedisOAuthStore {
  const { redis, prefix } = cluster;
  const keyOf = (key: string) => `${prefix}oauth:${key}`;
  const ttl = (seconds: number) => Math.max(1, Math.ceil(seconds));
  return {
    async get(key) {
      return (await redis.get(keyOf(key))) ?? undefined;
    },
    async set(key, value, ttlSeconds) {
      await redis.set(keyOf(key), value, 'EX', ttl(ttlSeconds));
    },
    async add(key, value, ttlSeconds) {
      return (await redis.set(keyOf(key), value, 'EX', ttl(ttlSeconds), 'NX')) === 'OK';
    },
    async delete(key) {
      await redis.del(keyOf(key));
    },
  };
}
