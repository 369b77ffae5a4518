import type { AuthInfo } from '@toolwright/core';
import { roundCaller } from '../roundtrip/roundCaller';

/**
 * The identity a session is bound to, the one its round states and tasks are bound to
 * (`roundCaller`): the token's client and subject (`authInfo.extra.sub`), or, when the verifier
 * names no subject, its client and a digest of its token (two tokens of one client are then two
 * principals; a refreshed token opens a new session). A session opened by one principal is
 * unknown (404) to every other, so a leaked session id alone is useless. The two forms are told
 * apart by their labels (`sub:`, `token:`): no client id and subject pose as a token's digest.
 */
export function principalOf(auth: AuthInfo | undefined): string | undefined {
  return roundCaller(auth);
}
