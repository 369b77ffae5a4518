/**
 * Where the authorization server keeps its state: registered clients, pending sign-ins,
 * authorization codes, grants and refresh tokens. Values are JSON strings; secrets are kept
 * only as SHA-256 hashes, upstream tokens only encrypted. Every entry expires. One store
 * shared by every instance (e.g. Redis) lets any instance answer any request.
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
