/**
 * Where the authorization server keeps its state: registered clients, pending sign-ins,
 * authorization codes, grants and refresh tokens. Values are JSON strings; secrets are kept
 * only as SHA-256 hashes, upstream tokens only encrypted. Every entry expires. One store
 * shared by every instance (e.g. Redis) lets any instance answer any request.
 *
 * A store with a bound throws `OAuthStoreFullError` (or any error whose `code` is
 * `OAUTH_STORE_FULL`, with `retryAfterSeconds`) when a new key does not fit: the request that
 * needed it is answered 503 with `Retry-After`, not 500. Overwriting or deleting a key that is
 * there should never be refused. Keys begin with what they hold (`client:`, `signin:`,
 * `grant:`, `rt:`, ...): `MemoryOAuthStore` gives registrations and pending sign-ins a share
 * each, so that a flood of them leaves room for the grants of clients already signed in.
 */
export interface OAuthStore {
  get(key: string): Promise<string | undefined>;
  /** Sets `key`, replacing what was there; it expires after `ttlSeconds`. */
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /**
   * Sets `key` only when it is absent, atomically across instances (Redis: `SET NX`). True
   * when this call set it: how a code or refresh token is used once, even by racing requests.
   */
  add(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  delete(key: string): Promise<void>;
}
