import type { RedisCluster } from './createRedisCluster';
import { isOutOfMemoryReply } from './isOutOfMemoryReply';
import { RedisOAuthStoreFullError } from './RedisOAuthStoreFullError';

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
 * Replaces KEYS[1] (value ARGV[1], TTL ARGV[2] seconds) only when it is there; 1 when it was.
 * At `maxmemory` Redis refuses every `SET`, even of a key it holds; `allow-oom` lets this
 * script replace one anyway, so an entry already stored can still be updated. Needs Redis 7.
 */
const REPLACE_EXISTING = `#!lua flags=allow-oom
return redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2], 'XX') and 1 or 0
`;

/**
 * `createOAuthServer({ store })` on the cluster's Redis, so that every instance answers every
 * step of a sign-in (authorize on one, token on another) and a code or refresh token is used
 * once across all of them: `add` is `SET NX`. Keys are `<prefix>oauth:<key>`, each with its TTL.
 * Give every instance the same `signingKey` and `secret` too.
 *
 * When Redis is out of memory (`maxmemory` under `noeviction`), a new entry is refused with an
 * error whose `code` is `OAUTH_STORE_FULL` (the server answers 503 with `Retry-After`), while
 * entries already stored are still read, replaced and deleted.
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
      try {
        await redis.set(keyOf(key), value, 'EX', ttl(ttlSeconds));
      } catch (error) {
        if (!isOutOfMemoryReply(error)) throw error;
        // A key Redis already holds is replaced past maxmemory; a new one does not fit.
        const replaced = await redis.eval(REPLACE_EXISTING, 1, keyOf(key), value, ttl(ttlSeconds)).catch((failure: unknown) => failure);
        if (replaced !== 1) throw storeFull(key, error, replaced);
      }
    },
    async add(key, value, ttlSeconds) {
      try {
        return (await redis.set(keyOf(key), value, 'EX', ttl(ttlSeconds), 'NX')) === 'OK';
      } catch (error) {
        if (!isOutOfMemoryReply(error)) throw error;
        // Redis refuses SET NX at maxmemory before looking at the key: a key already there is what SET NX would have said.
        if ((await redis.exists(keyOf(key))) === 1) return false;
        throw storeFull(key, error);
      }
    },
    async delete(key) {
      // DEL frees memory: Redis runs it at maxmemory too.
      await redis.del(keyOf(key));
    },
  };
}

/** The error for a new entry Redis has no memory for, naming only the kind of entry (the key may hold an id). */
function storeFull(key: string, refusal: unknown, replaceFailure?: unknown): RedisOAuthStoreFullError {
  const colon = key.indexOf(':');
  const what = colon > 0 ? `a new '${key.slice(0, colon + 1)}' entry` : 'a new entry';
  const reason = String((refusal as Error).message).replace(/\.$/, '');
  const replace = replaceFailure instanceof Error ? ` (replacing it in place failed too: ${replaceFailure.message}; that needs Redis 7 or newer)` : '';
  return new RedisOAuthStoreFullError(
    `@toolwright/redis: the OAuth store cannot keep ${what}: Redis is out of memory (${reason})${replace}. ` +
      'Entries already stored are still replaced and deleted. Raise maxmemory or give Redis more memory; keep the noeviction policy.',
    { cause: refusal },
  );
}
