import { createHash } from 'node:crypto';
import { ConfigError, type MemberCall, type MiddlewareFn } from '@toolwright/core';
import type { CacheEntry, CacheStore } from './CacheStore';
import { callRound } from '../pipeline/callRound';
import { callerKey } from './callerKey';
import { canonicalJson } from './canonicalJson';
import type { Clock } from './Clock';
import { MemoryCacheStore } from './MemoryCacheStore';

export interface CacheOptions {
  /** How long a result is served from the cache, in milliseconds. */
  readonly ttlMs: number;
  /** Where results live. Default: a bounded `MemoryCacheStore` (1000 results, 64 MiB) in this process. */
  readonly store?: CacheStore;
  /** Default `Date.now`; tests pass a fake clock. */
  readonly clock?: Clock;
  /**
   * The cache key of a call; `undefined` to leave the call uncached. Default: the caller
   * (`authInfo.clientId` and the user `extra.sub`, or the client and a digest of the token
   * when it names no user; else the session; else `'anonymous'`), the member's kind and name,
   * and a SHA-256 of the URI of a read and the validated arguments as canonical JSON (so a
   * key stays short however large the arguments). Keep the caller in any key of your own, or
   * one caller may be served another's result.
   */
  readonly key?: (call: MemberCall) => string | undefined;
  /** Cache prompts too. Default false: prompts are cheap to render and often read live data. */
  readonly prompts?: boolean;
}

/**
 * Serves a repeated call from a cache for `ttlMs`: tools marked `readOnlyHint` or
 * `idempotentHint` (an idempotent tool's repeat within the TTL is answered without running
 * it), every resource read, and prompts when `prompts: true`. Other members, `isError`
 * results, calls that throw, what a method returns once its call was cancelled or timed out,
 * and a 2026-07-28 round that still asks the client something are never cached. Each hit is
 * a copy, so middleware outside may change it freely.
 *
 * @example
 * ＠UseMiddleware(cache({ ttlMs: 30_000 }))
 * ＠Tool({ description: 'Look up a city.', annotations: { readOnlyHint: true } })
 */
export function cache(options: CacheOptions): MiddlewareFn {
  const { ttlMs } = options;
  if (!(Number.isFinite(ttlMs) && ttlMs > 0)) throw new ConfigError(`cache: ttlMs must be a positive number of milliseconds, got ${ttlMs}.`);
  const clock = options.clock ?? Date.now;
  const store = options.store ?? new MemoryCacheStore();
  const keyOf = options.key ?? defaultKey;
  const cacheable = (call: MemberCall): boolean =>
    call.kind === 'resource' || (call.kind === 'prompt' ? options.prompts === true : call.annotations?.readOnlyHint === true || call.annotations?.idempotentHint === true);

  const answer = async (call: MemberCall, key: string, next: () => Promise<unknown>, held: CacheEntry | undefined): Promise<unknown> => {
    if (held !== undefined && held.expiresAt > clock()) return structuredClone(held.value);
    const result = await next();
    if (isAnswer(call, result)) await store.set(key, { value: structuredClone(result), expiresAt: clock() + ttlMs });
    return result;
  };

  return function cache(call, next) {
    if (!cacheable(call)) return next();
    const key = keyOf(call);
    if (key === undefined) return next();
    const held = store.get(key);
    return held instanceof Promise ? held.then((h) => answer(call, key, next, h)) : answer(call, key, next, held);
  };
}

/**
 * Whether `result` is the call's answer, to be kept: not an `isError` result, not what a method
 * returned after its call was cancelled or timed out (the client got no answer or the timeout's,
 * and a method that stops early, `if (ctx.signal.aborted) return ...`, returns a partial result),
 * and not what it returned in a 2026-07-28 round that still asks the client something (the client
 * gets the question; a retry served this result from the cache would never ask it).
 */
function isAnswer(call: MemberCall, result: unknown): boolean {
  return (result as { isError?: unknown } | undefined)?.isError !== true && call.signal?.aborted !== true && callRound(call)?.asking !== true;
}

/**
 * The caller (`callerKey`: a token that names no user is told apart by a digest of the token, so
 * no user sees another's result and a refreshed token misses the cache), the member, and a
 * SHA-256 of the URI and arguments: a short key however large the arguments.
 */
function defaultKey(call: MemberCall): string {
  const input = createHash('sha256')
    .update(`${call.uri ?? ''} ${canonicalJson(call.args)}`)
    .digest('base64url');
  return `${callerKey(call)} ${call.kind}:${call.name} ${input}`;
}
