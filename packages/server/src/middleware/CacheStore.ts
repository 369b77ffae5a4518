/** A cached result and when it stops being served (ms on the cache's clock). */
export interface CacheEntry {
  readonly value: unknown;
  readonly expiresAt: number;
}

/**
 * Where `cache` keeps results: in memory by default (`MemoryCacheStore`); a shared store
 * (Redis, ...) lets instances behind a load balancer share them. Values are JSON results.
 * Either method may return a promise. `get` may return an expired entry: the cache checks.
 */
export interface CacheStore {
  get(key: string): CacheEntry | undefined | Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): void | Promise<void>;
}
