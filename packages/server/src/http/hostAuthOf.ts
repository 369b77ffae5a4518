import type { AuthInfo } from '@toolwright/core';

/**
 * The caller a host framework put on the request (`req.auth`, the SDK's convention) when it is
 * an `AuthInfo` Toolwright can bind sessions, scopes and rate limits to: a string token, a
 * non-empty clientId and string scopes. Anything else found there (express-basic-auth's
 * `{ user, password }`) names no caller Toolwright knows: the request is anonymous.
 */
export function hostAuthOf(value: unknown): AuthInfo | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const info = value as Partial<Record<keyof AuthInfo, unknown>>;
  const ok =
    typeof info.token === 'string' &&
    typeof info.clientId === 'string' &&
    info.clientId !== '' &&
    Array.isArray(info.scopes) &&
    info.scopes.every((scope) => typeof scope === 'string') &&
    (info.extra === undefined || (typeof info.extra === 'object' && info.extra !== null));
  return ok ? (value as AuthInfo) : undefined;
}
