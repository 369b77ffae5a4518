import type { AuthInfo } from '@toolwright/core';

/**
 * The identity a session is bound to: the token's client and subject. A session opened
 * by one principal is unknown (404) to every other, so a leaked session id alone is useless.
 */
export function principalOf(auth: AuthInfo | undefined): string | undefined {
  if (!auth) return undefined;
  const sub = auth.extra?.sub;
  return `${auth.clientId}\u0000${typeof sub === 'string' ? sub : ''}`;
}
