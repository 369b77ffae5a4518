import { createHash } from 'node:crypto';
import { ConfigError } from '@toolwright/core';
import type { Redis } from 'ioredis';
import type { CacheEntry, CacheStore, RateLimitStore, TokenBucket } from '@toolwright/server/middleware';
import type { RedisCluster } from './createRedisCluster';
import { TAKE_TOKEN } from './TAKE_TOKEN';

export interface RedisMiddlewareStoreOptions {
  /**
   * The longest an untouched rate-limit bucket is kept. Default: until it would be full again
   * (then dropping it changes nothing). A shorter time saves Redis memory but lets a caller who
   * comes back after it start with a full bucket, sooner than the limit's refill allows.
   */
  bucketTtlMs?: number;
}

interface Scripted extends Redis {
  twTakeToken(bucket: string, capacity: number, refillPerMs: number, maxTtlMs: number): Promise<string>;
}

/**
 * The stores of `rateLimit()` and `cache()` (from `@toolwright/server/middleware`) on the
 * cluster's Redis, so every instance counts the same buckets and serves the same cached
 * results. A call takes its token in one Lua script (refill and spend, on the Redis server's
 * clock), so concurrent calls on any number of instances spend each token once. Keys carry the
 * cluster's prefix and a TTL: a bucket lives until it would be full again (or `bucketTtlMs`),
 * a cached result until it expires; bucket and cache keys are SHA-256 digests of the middleware's
 * key (the caller, the member and, for the cache, the arguments), short however long the ids in
 * it. While Redis is unreachable a call that needs a store fails with an error result that says
 * so, as any failing middleware does.
 */
export function createRedisMiddlewareStores(cluster: RedisCluster, options: RedisMiddlewareStoreOptions = {}): { rateLimit: RateLimitStore; cache: CacheStore } {
  const { prefix } = cluster;
  const redis = cluster.redis as Scripted;
  const maxTtlMs = options.bucketTtlMs ?? 0;
  if (!(Number.isFinite(maxTtlMs) && maxTtlMs >= 0))
    throw new ConfigError(`createRedisMiddlewareStores: bucketTtlMs must be a number of milliseconds, 0 or more (0, the default: until the bucket would be full again), got ${options.bucketTtlMs}.`);
  if (typeof redis.twTakeToken !== 'function') redis.defineCommand('twTakeToken', { numberOfKeys: 1, lua: TAKE_TOKEN });
  const digest = (key: string) => createHash('sha256').update(key).digest('base64url');
  const bucketKey = (key: string) => `${prefix}rl:${digest(key)}`;
  const cacheKey = (key: string) => `${prefix}cache:${digest(key)}`;

  return {
    rateLimit: {
      async take(key, rule) {
        return Number(await redis.twTakeToken(bucketKey(key), rule.capacity, rule.refillPerSecond / 1000, Math.ceil(maxTtlMs)));
      },
      // `rateLimit` uses `take` alone; these read and write the same bucket, `updatedAt` on the Redis server's clock.
      async get(key) {
        const [tokens, at] = await redis.hmget(bucketKey(key), 'tokens', 'at');
        return tokens === null || at === null ? undefined : { tokens: Number(tokens), updatedAt: Number(at) };
      },
      async set(key, bucket: TokenBucket) {
        await redis
          .multi()
          .hset(bucketKey(key), 'tokens', String(bucket.tokens), 'at', String(bucket.updatedAt))
          .pexpire(bucketKey(key), maxTtlMs > 0 ? Math.ceil(maxTtlMs) : 60 * 60 * 1000)
          .exec();
      },
    },
    cache: {
      // A value that is not an entry (another version's, or corrupted, or a key of another type) is a miss: the member runs and its result replaces it.
      async get(key) {
        const json = await redis.get(cacheKey(key)).catch((error: unknown) => {
          if (String((error as Error)?.message).startsWith('WRONGTYPE')) return null;
          throw error;
        });
        if (json === null) return undefined;
        let entry: unknown;
        try {
          entry = JSON.parse(json);
        } catch {
          return undefined;
        }
        const e = entry as Partial<CacheEntry> | null;
        return typeof e === 'object' && e !== null && !Array.isArray(e) && typeof e.expiresAt === 'number' && Object.hasOwn(e, 'value') ? (e as CacheEntry) : undefined;
      },
      // Two instances that miss together both run the member and both write: the last result stays, each a valid answer for the key.
      async set(key, entry) {
        // The entry's own expiry is on the cache's clock; Redis keeps it that long from now, at least a millisecond.
        const ttl = Math.max(1, Math.ceil(entry.expiresAt - Date.now()));
        await redis.set(cacheKey(key), JSON.stringify(entry), 'PX', ttl);
      },
    },
  };
}
