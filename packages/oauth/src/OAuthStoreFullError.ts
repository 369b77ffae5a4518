import { ToolwrightError } from '@toolwright/core';

/** The `code` of a store-full error: what the authorization server looks for, so a store in another package can throw its own error with it. */
export const OAUTH_STORE_FULL = 'OAUTH_STORE_FULL';

/**
 * Thrown by an `OAuthStore` that cannot take a new entry. The authorization server answers
 * the request that needed the entry with HTTP 503 and `Retry-After` (an OAuth error at
 * `/register`, `/token` and `/revoke`, a page at `/authorize`), never a 500. What is already
 * stored keeps working: overwriting or removing an entry never throws it.
 */
export class OAuthStoreFullError extends ToolwrightError {
  readonly code = OAUTH_STORE_FULL;

  constructor(
    message: string,
    /** When to try again: when the first entry that blocks the new one expires. */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The seconds to wait, when `error` says the store is full (an `OAuthStoreFullError`, or any error with its `code`); else undefined. */
export function storeFullRetryAfter(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== OAUTH_STORE_FULL) return undefined;
  const seconds = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 1 ? Math.ceil(seconds) : 60;
}
