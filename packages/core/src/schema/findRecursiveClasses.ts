import type { Class } from '../metadata/Class';
import { findTypeMetadata } from './class-transformer';
import { readDtoProperties } from './class-validator';
import { isDtoClass } from './isDtoClass';

/** The DTO classes reachable from `root` that are reachable from themselves (they go to `$defs`). */
export function findRecursiveClasses(root: Class): ReadonlySet<Class> {
  const edges = new Map<Class, Class[]>();
  const pending: Class[] = [root];
  while (pending.length > 0) {
    const cls = pending.pop()!;
    if (edges.has(cls)) continue;
    const next = nestedClasses(cls);
    edges.set(cls, next);
    pending.push(...next);
  }
  const recursive = new Set<Class>();
  for (const [cls, next] of edges) if (reaches(edges, next, cls)) recursive.add(cls);
  return recursive;
}

/** The DTO classes `cls`'s properties hold (through @Type, else design:type). */
function nestedClasses(cls: Class): Class[] {
  const found: Class[] = [];
  for (const prop of readDtoProperties(cls)) {
    let ref: unknown;
    const hint = findTypeMetadata(cls, prop.name);
    for (const sub of hint?.discriminator?.subTypes ?? []) if (isDtoClass(sub.value)) found.push(sub.value);
    try {
      ref = hint ? hint.resolve() : Reflect.getMetadata('design:type', cls.prototype as object, prop.name);
    } catch {
      continue; // reported when the property itself is derived
    }
    if (isDtoClass(ref)) found.push(ref);
  }
  return found;
}

function reaches(edges: ReadonlyMap<Class, readonly Class[]>, from: readonly Class[], target: Class): boolean {
  const seen = new Set<Class>();
  const stack = [...from];
  while (stack.length > 0) {
    const cls = stack.pop()!;
    if (cls === target) return true;
    if (seen.has(cls)) continue;
    seen.add(cls);
    stack.push(...(edges.get(cls) ?? []));
  }
  return false;
}
