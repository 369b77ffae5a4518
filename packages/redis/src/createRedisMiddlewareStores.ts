import type { CacheEntry, CacheStore, RateLimitStore, TokenBucket } from '@toolwright/server/middleware';
import type { RedisCluster } from './createRedisCluster';

export interface RedisMiddlewareStoreOptions {
  /** How long an untouched rate-limit bucket is kept; a caller back after that starts with a full bucket. Default 1 hour. */
  bucketTtlMs?: number;
}

/**
 * The stores of `rateLimit()` and `cache()` (from `@toolwright/server/middleware`) on the
 * cluster's Redis, so every instance counts the same buckets and serves the same cached
 * results. Keys carry the cluster's prefix and a TTL: a bucket lives `bucketTtlMs` after its
 * last call, a cached result until it expires. While Redis is unreachable a call that needs a
 * store fails with an error result that says so, as any failing middleware does.
 */
export function createRedisMiddlewareStores(cluster: RedisCluster, options: RedisMiddlewareStoreOptions = {}): { rateLimit: RateLimitStore; cache: CacheStore } {
  const { redis, prefix } = cluster;
  const bucketTtlMs = options.bucketTtlMs ?? 60 * 60 * 1000;
  const read = async <T>(key: string): Promise<T | undefined> => {
    const json = await redis.get(key);
    return json === null ? undefined : (JSON.parse(json) as T);
  };
  return {
    rateLimit: {
      get: (key) => read<TokenBucket>(`${prefix}rl:${key}`),
      set: async (key, bucket) => {
        await redis.set(`${prefix}rl:${key}`, JSON.stringify(bucket), 'PX', bucketTtlMs);
      },
    },
    cache: {
      get: (key) => read<CacheEntry>(`${prefix}cache:${key}`),
      set: async (key, entry) => {
        // The entry's own expiry is on the cache's clock; Redis keeps it that long from now, at least a millisecond.
        const ttl = Math.max(1, Math.ceil(entry.expiresAt - Date.now()));
        await redis.set(`${prefix}cache:${key}`, JSON.stringify(entry), 'PX', ttl);
      },
    },
  };
}
