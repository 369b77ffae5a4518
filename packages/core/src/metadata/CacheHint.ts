/**
 * How long a 2026-07-28 client may reuse a result (`ttlMs`, a non-negative integer; 0 means
 * fetch again every time) and who may share it (`cacheScope`: 'private' for this client
 * only, 'public' for shared caches too). 2025-era results carry no cache fields.
 */
export interface CacheHint {
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

/** Why `hint` is not a valid cache hint, or undefined when it is. */
export function cacheHintProblem(hint: CacheHint): string | undefined {
  if (hint.ttlMs !== undefined && !(Number.isSafeInteger(hint.ttlMs) && hint.ttlMs >= 0)) return `ttlMs must be a non-negative integer (milliseconds), got ${String(hint.ttlMs)}`;
  if (hint.cacheScope !== undefined && hint.cacheScope !== 'public' && hint.cacheScope !== 'private') return `cacheScope must be 'public' or 'private', got '${String(hint.cacheScope)}'`;
  return undefined;
}
