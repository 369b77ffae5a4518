import type { Class } from '../metadata/Class';
import { callValuesOf } from '../metadata/ServiceLifetime';

/**
 * Every class a call's container can be asked for when it builds `roots` (member classes,
 * middleware classes): the roots and, transitively, their constructor types, as a
 * `ServiceScope` with overrides builds them (a `@FromCall` parameter is the call's value, not
 * injected). Left out: the built-in constructors TypeScript records for primitives and
 * interfaces (`String`, `Object`, ...), which no container builds.
 */
export function injectedClasses(roots: Iterable<Class>): ReadonlySet<Class> {
  const found = new Set<Class>();
  const visit = (cls: unknown): void => {
    if (typeof cls !== 'function' || found.has(cls as Class) || isBuiltIn(cls as Class)) return;
    found.add(cls as Class);
    const types = (Reflect.getMetadata('design:paramtypes', cls) as unknown[] | undefined) ?? [];
    const fromCall = callValuesOf(cls as Class);
    types.forEach((type, i) => {
      if (!fromCall.has(i)) visit(type);
    });
  };
  for (const root of roots) visit(root);
  return found;
}

function isBuiltIn(cls: Class): boolean {
  return Object.hasOwn(globalThis, cls.name) && (globalThis as Record<string, unknown>)[cls.name] === cls;
}
