import type { Class } from '../metadata/Class';
import { lifetimeOf } from '../metadata/ServiceLifetime';
import type { BuildProblem } from './BuildProblem';

/**
 * A class lives at least as long as what it injects would have to: an app-lifetime class
 * built once cannot hold a request's service. Follows constructor types through
 * app-lifetime classes and reports the first scoped one found.
 */
export function checkLifetimes(cls: Class, problems: BuildProblem[]): void {
  if (lifetimeOf(cls) !== 'app') return;
  const scoped = firstScopedDependency(cls, new Set());
  if (scoped) {
    problems.push({
      where: cls.name,
      what: `injects ${scoped.path.join(' -> ')}, which is @Scoped('${lifetimeOf(scoped.cls)}'), but is itself built once for the app`,
      fix: `mark ${cls.name} @Scoped('${lifetimeOf(scoped.cls)}') too, so it is built per ${lifetimeOf(scoped.cls)}.`,
    });
  }
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
