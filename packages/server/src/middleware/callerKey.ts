import type { MemberAccess } from '@toolwright/core';

/**
 * Who is calling, as a key: the authenticated client (`authInfo.clientId`, with the user
 * `authInfo.extra.sub` when the token names one), else the 2025-era session, else
 * `'anonymous'` (stdio, or unauthenticated stateless HTTP: one caller as far as the server can tell).
 */
export function callerKey(access: Pick<MemberAccess, 'authInfo' | 'sessionId'>): string {
  const auth = access.authInfo;
  if (auth) {
    const sub = auth.extra?.sub;
    return typeof sub === 'string' && sub !== auth.clientId ? `client:${auth.clientId}/user:${sub}` : `client:${auth.clientId}`;
  }
  if (access.sessionId !== undefined) return `session:${access.sessionId}`;
  return 'anonymous';
}
