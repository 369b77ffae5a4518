import { ConfigError } from '@toolwright/core';
import type { RateLimitStore, TokenBucket } from './RateLimitStore';

export interface MemoryRateLimitStoreOptions {
  /** The most buckets kept; the least recently used goes first. Default 10 000. */
  readonly maxBuckets?: number;
  /** A bucket untouched this long (ms on the limiter's clock) is dropped: it would be full again anyway. */
  readonly idleMs?: number;
}

/**
 * The default `RateLimitStore`: a map in this process, bounded. Buckets are kept in the
 * order they were last used, so the idle ones are at the front: each write drops the
 * buckets idle for `idleMs` (a dropped bucket comes back full, as it would have refilled)
 * and, past `maxBuckets`, the least recently used.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly maxBuckets: number;
  private readonly idleMs: number;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.maxBuckets = options.maxBuckets ?? 10_000;
    this.idleMs = options.idleMs ?? Infinity;
    if (!(Number.isInteger(this.maxBuckets) && this.maxBuckets > 0)) throw new ConfigError(`MemoryRateLimitStore: maxBuckets must be a positive integer, got ${options.maxBuckets}.`);
  }

  /** How many buckets are kept now. */
  get size(): number {
    return this.buckets.size;
  }

  get(key: string): TokenBucket | undefined {
    return this.buckets.get(key);
  }

  set(key: string, bucket: TokenBucket): void {
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    for (const [oldest, b] of this.buckets) {
      if (this.buckets.size <= this.maxBuckets && bucket.updatedAt - b.updatedAt < this.idleMs) break;
      this.buckets.delete(oldest);
    }
  }
}
