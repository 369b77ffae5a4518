import type { Class } from '../metadata/Class';
import { callValuesOf, lifetimeOf } from '../metadata/ServiceLifetime';
import type { BuildProblem } from './BuildProblem';
import type { UntypedConstructor } from './missingMetadata';

/** What a checked class is, for the messages: a tool class, a middleware or a guard. */
export interface InjectableRole {
  /** Where the problem is reported: the class name, or `Audit (middleware)`. */
  readonly where: string;
  /** How it is built per call when scoped, for the fix: 'tool class', 'middleware', 'guard'. */
  readonly noun: string;
}

/**
 * A class lives at least as long as what it injects would have to: an app-lifetime class
 * built once cannot hold a request's service. Follows constructor types through
 * app-lifetime classes and reports the first scoped one found. Tool classes, middleware
 * classes and guard classes are all built by the call's container, so the same rule holds.
 */
export function checkLifetimes(cls: Class, problems: BuildProblem[], role: InjectableRole = { where: cls.name, noun: 'tool class' }): void {
  if (lifetimeOf(cls) !== 'app') return;
  const scoped = firstScopedDependency(cls, new Set());
  if (scoped) {
    const lifetime = lifetimeOf(scoped.cls);
    problems.push({
      where: role.where,
      what: `injects ${scoped.path.join(' -> ')}, which is @Scoped('${lifetime}'), but this ${role.noun} is itself built once for the app, so the container cannot build it`,
      fix: `mark ${cls.name} @Scoped('${lifetime}') too, so it is built per ${lifetime} with that ${lifetime}'s services.`,
    });
  }
}

/**
 * A constructor that takes parameters needs its constructor types (`design:paramtypes`),
 * which TypeScript emits only with `emitDecoratorMetadata` and only for a class that has a
 * class decorator. Without them the container passes nothing (or itself) and every call
 * fails later with an error far from the cause. Checked for scoped classes (Toolwright
 * builds them from those types) and, when `containerReadsTypes`, for app-lifetime ones.
 * Records the class in `untyped` (`reportMissingMetadata` tells the cause, once for the
 * build) and returns whether it did.
 */
export function checkConstructorTypes(cls: Class, untyped: UntypedConstructor[], containerReadsTypes: boolean, role: InjectableRole = { where: cls.name, noun: 'tool class' }): boolean {
  if (cls.length === 0 || Reflect.getOwnMetadata('design:paramtypes', cls) !== undefined) return false;
  const scoped = lifetimeOf(cls) !== 'app';
  if (!scoped && !containerReadsTypes) return false;
  // A scoped class whose every parameter is a @FromCall value needs no types.
  const fromCall = callValuesOf(cls);
  if (scoped && Array.from({ length: cls.length }, (_, i) => i).every((i) => fromCall.has(i))) return false;
  untyped.push({ cls, role, decorator: scoped ? `@Scoped('${lifetimeOf(cls)}')` : '@Service() (typedi)' });
  return true;
}

function firstScopedDependency(cls: Class, seen: Set<Class>): { cls: Class; path: string[] } | undefined {
  seen.add(cls);
  const types = (Reflect.getMetadata('design:paramtypes', cls) as unknown[] | undefined) ?? [];
  for (const type of types) {
    if (typeof type !== 'function' || seen.has(type as Class)) continue;
    const dep = type as Class;
    if (lifetimeOf(dep) !== 'app') return { cls: dep, path: [dep.name] };
    const deeper = firstScopedDependency(dep, seen);
    if (deeper) return { cls: deeper.cls, path: [dep.name, ...deeper.path] };
  }
  return undefined;
}
