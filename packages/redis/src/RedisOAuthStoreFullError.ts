import { ToolwrightError } from '@toolwright/core';

/**
 * Thrown by `createRedisOAuthStore` when Redis, out of memory (`maxmemory` reached under the
 * `noeviction` policy), refuses a new entry. Its `code` is `OAUTH_STORE_FULL`, which
 * `@toolwright/oauth` answers with HTTP 503 and `Retry-After`, as it answers its own
 * `OAuthStoreFullError`. Redis does not say when memory will be free, so `retryAfterSeconds`
 * is a fixed guess, not a promise.
 */
export class RedisOAuthStoreFullError extends ToolwrightError {
  readonly code = 'OAUTH_STORE_FULL';
  /** When to try again: a fixed 60 seconds (Redis does not say when memory frees up). */
  readonly retryAfterSeconds = 60;
}
