import type { AuthInfo } from '@toolwright/core';
import type { StoredCaller } from './TaskStore';

/** The caller as the verifier described it, without its token, for runs outside any request; nothing for an anonymous caller. */
export function storedCallerOf(auth: AuthInfo | undefined): { caller?: StoredCaller } {
  if (!auth) return {};
  let extra: Record<string, unknown> | undefined;
  try {
    extra = auth.extra === undefined ? undefined : (JSON.parse(JSON.stringify(auth.extra)) as Record<string, unknown>);
  } catch {
    extra = undefined;
  }
  return {
    caller: {
      clientId: auth.clientId,
      scopes: [...auth.scopes],
      ...(auth.expiresAt !== undefined && { expiresAt: auth.expiresAt }),
      ...(auth.resource && { resource: String(auth.resource) }),
      ...(extra && { extra }),
    },
  };
}

/** The caller of a run outside any request: the stored one, with no token (`''`). */
export function authOf(caller: StoredCaller | undefined): AuthInfo | undefined {
  if (!caller) return undefined;
  return {
    token: '',
    clientId: caller.clientId,
    scopes: [...caller.scopes],
    ...(caller.expiresAt !== undefined && { expiresAt: caller.expiresAt }),
    ...(caller.resource !== undefined && { resource: new URL(caller.resource) }),
    ...(caller.extra && { extra: caller.extra }),
  };
}
