import { createHash } from 'node:crypto';
import type { AuthInfo } from '@toolwright/core';

/**
 * Who a 2026-07-28 round state is bound to: the client and the subject (`authInfo.extra.sub`,
 * which `jwtVerifier` requires), so two users of one OAuth client cannot redeem each other's
 * states. A caller whose verifier names no subject is bound to its client and a digest of its
 * token instead (a refreshed token then starts the call again). Anonymous callers: undefined.
 */
export function roundCaller(auth: AuthInfo | undefined): string | undefined {
  if (!auth) return undefined;
  const sub = auth.extra?.sub;
  if (typeof sub === 'string' && sub !== '') return `client:${auth.clientId}\u0000sub:${sub}`;
  return `client:${auth.clientId}\u0000token:${createHash('sha256').update(auth.token).digest('base64url')}`;
}
