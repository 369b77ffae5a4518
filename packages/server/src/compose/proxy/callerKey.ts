import type { AuthInfo } from '@toolwright/core';

/** The key of every caller without an identity: they cannot be told apart. */
export const ANONYMOUS = 'anonymous';

/** Callers share an upstream session only with themselves: same client and subject. */
export function callerKey(auth: AuthInfo | undefined): string {
  if (!auth) return ANONYMOUS;
  const sub = auth.extra?.sub;
  return JSON.stringify([auth.clientId, typeof sub === 'string' ? sub : '']);
}
