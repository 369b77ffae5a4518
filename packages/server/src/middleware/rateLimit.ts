import { ConfigError, type MemberCall, type MiddlewareFn } from '@toolwright/core';
import { callRound } from '../pipeline/callRound';
import { callerKey } from './callerKey';
import type { Clock } from './Clock';
import { MemoryRateLimitStore } from './MemoryRateLimitStore';
import type { RateLimitStore, TokenBucket } from './RateLimitStore';
import { refuseCall } from './refuseCall';
import { subjectOf } from './subjectOf';

export interface RateLimitOptions {
  /** The most calls in a burst: a bucket holds this many tokens and starts full. */
  readonly capacity: number;
  /** Tokens added back per second, up to `capacity`: the sustained rate. */
  readonly refillPerSecond: number;
  /**
   * Which bucket a call spends from. Default: one per caller and member, e.g.
   * `client:app-1/user:ada tool:search`. The caller is the client and the user
   * (`authInfo.extra.sub`); for a token that names no user, the client and a digest of the
   * token (each API key of one client is a caller of its own); else the session; else `'anonymous'`.
   */
  readonly key?: (call: MemberCall) => string;
  /** Where buckets live. Default: a bounded `MemoryRateLimitStore` in this process. */
  readonly store?: RateLimitStore;
  /** Default `Date.now`; tests pass a fake clock. */
  readonly clock?: Clock;
}

/**
 * A token bucket per caller and member: each call spends a token, tokens come back at
 * `refillPerSecond`. A 2026-07-28 call that asks the client something spends one in its first
 * round only: the retries that bring the answers go on with the same call (one that brings
 * none runs the method up to the same question again, and is counted as a call). That holds
 * where a round's state is accepted once: a retry whose state another instance issued and this
 * one claimed in a `usedStates` store that is not `shared: true` spends a token (instances that
 * share a bucket store should share `requestState.usedStates` too, or each retry taken elsewhere is charged). A call
 * with no token left does not run: a tool gets an `isError` result that says when to retry
 * (the model can read it), a resource read or prompt a JSON-RPC error saying the same.
 *
 * @example
 * ＠UseMiddleware(rateLimit({ capacity: 5, refillPerSecond: 1 }))   // bursts of 5, then 1 a second
 */
export function rateLimit(options: RateLimitOptions): MiddlewareFn {
  const { capacity, refillPerSecond } = options;
  if (!(Number.isFinite(capacity) && capacity >= 1)) throw new ConfigError(`rateLimit: capacity must be a number of calls >= 1, got ${capacity}.`);
  if (!(Number.isFinite(refillPerSecond) && refillPerSecond > 0)) throw new ConfigError(`rateLimit: refillPerSecond must be a positive number, got ${refillPerSecond}.`);
  const clock = options.clock ?? Date.now;
  const fullAfterMs = (capacity / refillPerSecond) * 1000;
  const store: RateLimitStore = options.store ?? new MemoryRateLimitStore({ idleMs: fullAfterMs });
  const keyOf = options.key ?? ((call: MemberCall) => `${callerKey(call)} ${call.kind}:${call.name}`);

  const refuse = (call: MemberCall, tokens: number): unknown => {
    const retryMs = Math.ceil(((1 - tokens) / refillPerSecond) * 1000);
    const retryS = Math.ceil(retryMs / 100) / 10;
    return refuseCall(call.kind, `Rate limit reached for ${subjectOf(call)}: at most ${capacity} calls at once, ${refillPerSecond} per second after that. Retry in ${retryS} s.`);
  };

  const spend = (call: MemberCall, next: () => Promise<unknown>, key: string, held: TokenBucket | undefined): unknown => {
    const now = clock();
    const tokens = held ? Math.min(capacity, held.tokens + (Math.max(0, now - held.updatedAt) / 1000) * refillPerSecond) : capacity;
    if (tokens < 1) return refuse(call, tokens);
    const saved = store.set(key, { tokens: tokens - 1, updatedAt: now });
    return saved instanceof Promise ? saved.then(next) : next();
  };
  // A store that takes a token atomically (a shared one) decides alone: no read-then-write race between instances.
  const taken = (call: MemberCall, next: () => Promise<unknown>, tokens: number): unknown => (tokens >= 1 ? next() : refuse(call, tokens));

  return function rateLimit(call, next) {
    // A later round of a 2026-07-28 call (the retry that brings the client's answers) goes on with a call that has spent its token.
    if (callRound(call)?.continues === true) return next();
    const key = keyOf(call);
    if (store.take) {
      const tokens = store.take(key, { capacity, refillPerSecond, now: clock() });
      return tokens instanceof Promise ? tokens.then((t) => taken(call, next, t)) : taken(call, next, tokens);
    }
    const held = store.get(key);
    return held instanceof Promise ? held.then((b) => spend(call, next, key, b)) : spend(call, next, key, held);
  };
}
