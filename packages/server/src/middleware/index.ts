/**
 * @toolwright/server/middleware — ready-made middleware for `AppOptions.middleware` and
 * `@UseMiddleware`: timing, rate limits, a result cache, a result size limit, error normalization.
 */
export { timing } from './timing';
export type { TimingOptions, CallTiming } from './timing';
export { rateLimit } from './rateLimit';
export type { RateLimitOptions } from './rateLimit';
export type { RateLimitStore, TokenBucket, TokenBucketRule } from './RateLimitStore';
export { MemoryRateLimitStore } from './MemoryRateLimitStore';
export type { MemoryRateLimitStoreOptions } from './MemoryRateLimitStore';
export { cache } from './cache';
export type { CacheOptions } from './cache';
export type { CacheStore, CacheEntry } from './CacheStore';
export { MemoryCacheStore } from './MemoryCacheStore';
export type { MemoryCacheStoreOptions } from './MemoryCacheStore';
export { maxResultSize } from './maxResultSize';
export type { MaxResultSizeOptions } from './maxResultSize';
export { normalizeErrors } from './normalizeErrors';
export type { Clock } from './Clock';
