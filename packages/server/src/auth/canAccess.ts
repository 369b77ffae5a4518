import type { AuthInfo, ToolAccess } from '@toolwright/core';

/**
 * Whether a caller may see and call a tool: public tools and tools without rules are
 * open; otherwise every required scope and, if roles are named, one of the roles
 * (`authInfo.extra.roles`). Anonymous callers pass no rule.
 */
export function canAccess(access: ToolAccess | undefined, auth: AuthInfo | undefined): boolean {
  if (!access || access.public) return true;
  if (!auth) return false;
  for (const scope of access.scopes) if (!auth.scopes.includes(scope)) return false;
  if (access.roles.length === 0) return true;
  const roles = rolesOf(auth);
  return access.roles.some((r) => roles.includes(r));
}

/** The scopes a caller lacks for a tool (empty when none are missing). */
export function missingScopes(access: ToolAccess | undefined, auth: AuthInfo | undefined): string[] {
  if (!access || access.public) return [];
  return access.scopes.filter((s) => !auth?.scopes.includes(s));
}

export function rolesOf(auth: AuthInfo): readonly string[] {
  const roles = auth.extra?.roles;
  return Array.isArray(roles) ? (roles as string[]) : typeof roles === 'string' ? roles.split(/[\s,]+/) : [];
}

/** Why a call is refused, for the error message (names the missing rule, never the caller's token). */
export function accessDenial(name: string, access: ToolAccess, auth: AuthInfo | undefined): string {
  if (!auth) return `Tool '${name}' requires an authenticated caller. Send a bearer token (HTTP) or configure the app's auth provider (stdio).`;
  const missing = missingScopes(access, auth);
  if (missing.length > 0) return `Tool '${name}' requires the scope(s) ${missing.map((s) => `'${s}'`).join(', ')}, which this caller's token lacks. Request a token with them.`;
  return `Tool '${name}' requires one of the roles ${access.roles.map((r) => `'${r}'`).join(', ')}, which this caller does not have.`;
}
