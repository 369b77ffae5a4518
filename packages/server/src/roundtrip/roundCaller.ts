import type { AuthInfo } from '@toolwright/core';

/** `node:crypto`'s `createHash`, loaded on first use: importing `node:crypto` costs every server's startup (about 20 to 45 ms on Node 22 and 24) and most servers never hash a token. */
let createHash: typeof import('node:crypto').createHash | undefined;

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
  return `client:${auth.clientId}\u0000token:${(createHash ??= (require('node:crypto') as typeof import('node:crypto')).createHash)('sha256').update(auth.token).digest('base64url')}`;
}
