import { isLoopbackAnonymous } from './sessionOwnerOf';

/** How fast one owner may open sessions: a token bucket of `burst` initialize requests, refilled at `perMinute`. */
export interface InitializeRate {
  /** Initialize requests one principal (or anonymous client address) may send at once. Default 30. */
  burst?: number;
  /** Initialize requests it may send per minute once the burst is spent. Default 120. */
  perMinute?: number;
}

export const DEFAULT_INITIALIZE_RATE = { burst: 30, perMinute: 120 } as const;

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept at most; past it the least recently used are forgotten (a forgotten owner starts with a full bucket). */
const MAX_BUCKETS = 100_000;

/**
 * The `initialize` rate limit of one endpoint, per owner (principal, or anonymous client
 * address), in this process's memory. `take` answers 0 when the request may go on, else
 * the seconds to wait. Full buckets are forgotten, so memory follows the owners that
 * opened sessions lately.
 */
export class InitializeRateLimit {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;
  private readonly perMs: number;

  constructor(rate: InitializeRate = {}) {
    this.burst = Math.max(1, rate.burst ?? DEFAULT_INITIALIZE_RATE.burst);
    this.perMs = Math.max(1e-9, (rate.perMinute ?? DEFAULT_INITIALIZE_RATE.perMinute) / 60_000);
  }

  /** Takes one token for `owner`: 0 if it had one (or needs none: see `isLoopbackAnonymous`), else how many seconds until it has. */
  take(owner: string, now = Date.now()): number {
    if (isLoopbackAnonymous(owner)) return 0;
    const bucket = this.buckets.get(owner);
    const tokens = bucket ? Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs) : this.burst;
    if (bucket) this.buckets.delete(owner); // re-inserted last: the map stays in least-recently-used order
    if (tokens < 1) {
      this.buckets.set(owner, { tokens, at: now });
      return Math.max(1, Math.ceil((1 - tokens) / this.perMs / 1000));
    }
    this.buckets.set(owner, { tokens: tokens - 1, at: now });
    if (this.buckets.size > MAX_BUCKETS) this.forget(now);
    return 0;
  }

  /** Drops the buckets that are full again, then the least recently used ones past the cap. */
  private forget(now: number): void {
    for (const [owner, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.perMs >= this.burst) this.buckets.delete(owner);
    }
    for (const owner of this.buckets.keys()) {
      if (this.buckets.size <= MAX_BUCKETS * 0.9) break;
      this.buckets.delete(owner);
    }
  }
}
