/** One token bucket: how many tokens it held at `updatedAt` (ms on the limiter's clock). */
export interface TokenBucket {
  readonly tokens: number;
  readonly updatedAt: number;
}

/**
 * Where `rateLimit` keeps its buckets: in memory by default (`MemoryRateLimitStore`); give
 * every instance behind a load balancer a shared one (Redis, ...) to limit across them.
 * Either method may return a promise. An asynchronous store sees a read and a write per
 * call with no lock between them, so concurrent calls of one caller may both spend the
 * same token: make `set` atomic on your side if that matters.
 */
export interface RateLimitStore {
  get(key: string): TokenBucket | undefined | Promise<TokenBucket | undefined>;
  set(key: string, bucket: TokenBucket): void | Promise<void>;
}
