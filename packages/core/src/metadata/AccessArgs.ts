/** Reflect metadata key for authorization rules (own metadata of the class). */
export const ACCESS_KEY = 'toolwright:access';

/** What `@RequireScopes`, `@RequireRoles` and `@Public` record. `methodName` is absent for a class-level rule. */
export interface AccessArgs {
  readonly kind: 'scopes' | 'roles' | 'public';
  readonly values: readonly string[];
  readonly methodName?: string;
}
