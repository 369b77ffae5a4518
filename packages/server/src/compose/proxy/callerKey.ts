import type { AuthInfo } from '@toolwright/core';
import { roundCaller } from '../../roundtrip/roundCaller';

/** The key of every caller without an identity: they cannot be told apart. */
export const ANONYMOUS = 'anonymous';

/**
 * Callers share an upstream session, and resume a parked call, only with themselves: same
 * client and subject, or, when the verifier names no subject, same client and token (two users
 * of one OAuth client are never one caller), as a 2026-07-28 round is bound (`roundCaller`).
 */
export function callerKey(auth: AuthInfo | undefined): string {
  return roundCaller(auth) ?? ANONYMOUS;
}
