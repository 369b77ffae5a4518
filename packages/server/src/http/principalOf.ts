import type { AuthInfo } from '@toolwright/core';
import { roundCaller } from '../roundtrip/roundCaller';

/**
 * The identity a session is bound to: the token's client and subject (`authInfo.extra.sub`). A
 * session opened by one principal is unknown (404) to every other, so a leaked session id alone
 * is useless. A caller whose verifier names no subject is bound to its client and a digest of its
 * token, as its round states and tasks are: two tokens of one client are then two principals, not
 * one that shares its sessions (a refreshed token opens a new session).
 */
export function principalOf(auth: AuthInfo | undefined): string | undefined {
  if (!auth) return undefined;
  const sub = auth.extra?.sub;
  return typeof sub === 'string' && sub !== '' ? `${auth.clientId}\u0000${sub}` : roundCaller(auth);
}
