import type { AccessArgs } from '../metadata/AccessArgs';
import type { MemberAccessArgs } from '../metadata/readMemberMetadata';
import type { BuildProblem } from './BuildProblem';

/** Who may see and use a tool, resource or prompt. Absent without rules: everyone who reaches the server may. */
export interface AccessRules {
  /** Open to everyone, anonymous callers included. */
  readonly public: boolean;
  /** Every one of these scopes is required. */
  readonly scopes: readonly string[];
  /** At least one of these roles is required (none: no role rule). */
  readonly roles: readonly string[];
}

/**
 * Resolves a member's (tool, resource, prompt) authorization rules from the class chain: class-level rules of the
 * class and its ancestors, then the method's own (its roles replace the class's; its
 * scopes add to them; `@Public()` clears both).
 */
export function resolveAccess({ classRules, methodRules }: MemberAccessArgs, where: string, problems: BuildProblem[]): AccessRules | undefined {
  if (classRules.length === 0 && methodRules.length === 0) return undefined;

  for (const rule of [...classRules, ...methodRules]) {
    if (rule.kind !== 'public' && (rule.values.length === 0 || rule.values.some((v) => typeof v !== 'string' || v.trim() === '' || /\s/.test(v)))) {
      problems.push({
        where,
        what: `@Require${rule.kind === 'scopes' ? 'Scopes' : 'Roles'}(${rule.values.map((v) => JSON.stringify(v)).join(', ')}) needs at least one non-empty name without spaces`,
        fix: `name them: @Require${rule.kind === 'scopes' ? "Scopes('notes:read')" : "Roles('admin')"}.`,
      });
    }
  }
  const methodPublic = methodRules.some((r) => r.kind === 'public');
  if (methodPublic && methodRules.some((r) => r.kind !== 'public')) {
    problems.push({ where, what: 'is marked @Public() and also requires scopes or roles', fix: 'keep either @Public() or the @Require… rules on this method.' });
  }
  if (methodPublic || (methodRules.length === 0 && classRules.some((r) => r.kind === 'public'))) {
    return Object.freeze({ public: true, scopes: Object.freeze([]), roles: Object.freeze([]) });
  }
  const collect = (rules: readonly AccessArgs[], kind: AccessArgs['kind']) => rules.filter((r) => r.kind === kind).flatMap((r) => r.values);
  const scopes = [...new Set([...collect(classRules, 'scopes'), ...collect(methodRules, 'scopes')])];
  const methodRoles = collect(methodRules, 'roles');
  const roles = [...new Set(methodRoles.length > 0 ? methodRoles : collect(classRules, 'roles'))];
  return Object.freeze({ public: false, scopes: Object.freeze(scopes), roles: Object.freeze(roles) });
}
