import type { AuthInfo } from '@toolwright/core';

/**
 * Checks a bearer token and says who it belongs to. Return (or resolve) undefined, or
 * throw, for a token that is not valid for this server: the caller then gets 401 with a
 * fixed `error_description` (what you throw goes to the request log, never to the client).
 * Check the audience: a token issued for another service must not be accepted here.
 *
 * Set `authInfo.extra.sub` to the user (a non-empty string) whenever the token names one:
 * sessions, tasks, 2026-07-28 round states, per-caller caches and per-caller rate limits are bound
 * to the client and the subject. Without one they are bound to the client and a digest of the token
 * instead: two tokens never reach each other's nor spend each other's rate limit, but a refreshed
 * token starts a new session and a fresh rate-limit budget. `jwtVerifier` refuses a token without
 * a string `sub`.
 */
export interface TokenVerifier {
  /** The caller the token names, or undefined (or a throw) for a token not valid here. */
  (token: string): AuthInfo | undefined | Promise<AuthInfo | undefined>;
  /**
   * The clock skew this verifier tolerates, in seconds: the endpoint then checks
   * `authInfo.expiresAt` with the same tolerance (`auth.clockToleranceSeconds` overrides it).
   * `jwtVerifier` sets it; default 30.
   */
  readonly clockToleranceSeconds?: number;
}
