/** The clock skew tolerated when checking a token's expiry, in seconds, unless configured otherwise. */
export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;

/**
 * Whether a token whose `exp` (seconds since the epoch) is `expiresAt` has expired, allowing
 * `toleranceSeconds` of clock skew: the rule jose applies to `exp` (expired when
 * `exp <= now - tolerance`, `now` in whole seconds), so a token `jwtVerifier` accepts is not
 * refused as expired by the endpoint a moment later, and a custom verifier's `expiresAt` is
 * judged the same way. No `expiresAt`: never expires here.
 */
export function isExpired(expiresAt: number | undefined, toleranceSeconds: number, nowMs = Date.now()): boolean {
  if (expiresAt === undefined) return false;
  if (typeof expiresAt !== 'number' || Number.isNaN(expiresAt)) return true;
  return expiresAt <= Math.floor(nowMs / 1000) - toleranceSeconds;
}
