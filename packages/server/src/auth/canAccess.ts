import type { AuthInfo, AccessRules } from '@toolwright/core';

/**
 * Whether a caller may see and use a tool, resource or prompt: public ones and ones without
 * rules are open; otherwise every required scope and, if roles are named, one of the roles
 * (`authInfo.extra.roles`). Anonymous callers pass no rule.
 */
export function canAccess(access: AccessRules | undefined, auth: AuthInfo | undefined): boolean {
  if (!access || access.public) return true;
  if (!auth) return false;
  for (const scope of access.scopes) if (!auth.scopes.includes(scope)) return false;
  if (access.roles.length === 0) return true;
  const roles = rolesOf(auth);
  return access.roles.some((r) => roles.includes(r));
}

/** The scopes a caller lacks (empty when none are missing). */
export function missingScopes(access: AccessRules | undefined, auth: AuthInfo | undefined): string[] {
  if (!access || access.public) return [];
  return access.scopes.filter((s) => !auth?.scopes.includes(s));
}

export function rolesOf(auth: AuthInfo): readonly string[] {
  const roles = auth.extra?.roles;
  return Array.isArray(roles) ? (roles as string[]) : typeof roles === 'string' ? roles.split(/[\s,]+/) : [];
}

/** The authenticated caller of a request, from the SDK's handler context. */
export function callerOf(ctx: { readonly http?: { readonly authInfo?: AuthInfo } }): AuthInfo | undefined {
  return ctx.http?.authInfo;
}
