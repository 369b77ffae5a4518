/** One token bucket: how many tokens it held at `updatedAt` (ms on the limiter's clock). */
export interface TokenBucket {
  readonly tokens: number;
  readonly updatedAt: number;
}

/** What `RateLimitStore.take` needs to refill and spend a bucket: the limiter's rule and its clock's time. */
export interface TokenBucketRule {
  readonly capacity: number;
  readonly refillPerSecond: number;
  /** Now, in ms on the limiter's clock. A shared store may use one clock of its own instead (the Redis store uses the server's). */
  readonly now: number;
}

/**
 * Where `rateLimit` keeps its buckets: in memory by default (`MemoryRateLimitStore`); give
 * every instance behind a load balancer a shared one (Redis, ...) to limit across them.
 * Either method may return a promise.
 *
 * With `get` and `set` alone, an asynchronous store sees a read and a write per call with no
 * lock between them, so concurrent calls of one caller may all spend the same token. A
 * shared store should implement `take`: `rateLimit` then uses it alone, one atomic step per call.
 */
export interface RateLimitStore {
  get(key: string): TokenBucket | undefined | Promise<TokenBucket | undefined>;
  set(key: string, bucket: TokenBucket): void | Promise<void>;
  /**
   * Refills the bucket (a missing one starts full at `capacity`) and, if it holds a whole
   * token, spends one, in one atomic step. Returns the tokens it held before spending:
   * the call runs when that is at least 1.
   */
  take?(key: string, rule: TokenBucketRule): number | Promise<number>;
}
