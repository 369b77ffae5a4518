import type { Class } from '../metadata/Class';
import { findTypeMetadata } from './class-transformer';
import { readDtoProperties } from './class-validator';
import { isDtoClass } from './isDtoClass';

/** Which references of one root's DTO classes lead back to themselves; decided before any schema is derived. */
export interface Recursion {
  /** The classes reachable from themselves: a plain reference to one is a `$ref` to its `$defs` entry. */
  readonly classes: ReadonlySet<Class>;
  /** Whether a class of the graph holds `cls` as a plain nested class (not as a branch of a discriminated union). */
  isHeldPlainly(cls: Class): boolean;
  /**
   * Whether `cls` as the branch `name` of a union on `property` holds that same branch again,
   * in one of its own properties or through other classes: then the branch refers to itself.
   */
  isRecursiveBranch(cls: Class, property: string, name: string): boolean;
}

interface Holds {
  /** Classes held through `@Type` (or `design:type`). */
  readonly plain: Class[];
  /** Branches of discriminated unions held: the class, and `branchKey` of the union's property and the branch's name. */
  readonly branches: { readonly value: Class; readonly key: string }[];
}

/** The DTO class graph of `root`: what each class holds, plainly and as union branches. */
export function findRecursion(root: Class): Recursion {
  const holds = new Map<Class, Holds>();
  const pending: Class[] = [root];
  while (pending.length > 0) {
    const cls = pending.pop()!;
    if (holds.has(cls)) continue;
    const held = nestedClasses(cls);
    holds.set(cls, held);
    pending.push(...successors(held));
  }
  const reachable = new Map<Class, ReadonlySet<Class>>();
  const reachableFrom = (cls: Class): ReadonlySet<Class> => {
    let found = reachable.get(cls);
    if (!found) reachable.set(cls, (found = reach(holds, cls)));
    return found;
  };
  const plainlyHeld = new Set<Class>();
  // The classes that hold each branch, by branch class, then by its key.
  const holders = new Map<Class, Map<string, Class[]>>();
  for (const [cls, held] of holds) {
    for (const next of held.plain) plainlyHeld.add(next);
    for (const { value, key } of held.branches) {
      let byKey = holders.get(value);
      if (!byKey) holders.set(value, (byKey = new Map()));
      byKey.set(key, [...(byKey.get(key) ?? []), cls]);
    }
  }
  const classes = new Set<Class>([...holds.keys()].filter((cls) => reachableFrom(cls).has(cls)));
  return {
    classes,
    isHeldPlainly: (cls) => plainlyHeld.has(cls),
    isRecursiveBranch(cls, property, name) {
      const found = holders.get(cls)?.get(branchKey(property, name)) ?? [];
      return found.some((holder) => holder === cls || reachableFrom(cls).has(holder));
    },
  };
}

/** The DTO classes `cls`'s properties hold: through @Type (else design:type), and as discriminated branches. */
function nestedClasses(cls: Class): Holds {
  const held: Holds = { plain: [], branches: [] };
  for (const prop of readDtoProperties(cls)) {
    let ref: unknown;
    const hint = findTypeMetadata(cls, prop.name);
    const d = hint?.discriminator;
    for (const sub of d?.subTypes ?? []) if (d && isDtoClass(sub.value)) held.branches.push({ value: sub.value, key: branchKey(d.property, sub.name) });
    try {
      ref = hint ? hint.resolve() : Reflect.getMetadata('design:type', cls.prototype as object, prop.name);
    } catch {
      continue; // reported when the property itself is derived
    }
    if (isDtoClass(ref)) held.plain.push(ref);
  }
  return held;
}

/** The classes reachable from `cls` through one reference or more. */
function reach(holds: ReadonlyMap<Class, Holds>, cls: Class): ReadonlySet<Class> {
  const seen = new Set<Class>();
  const start = holds.get(cls);
  const stack = start ? successors(start) : [];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    const held = holds.get(next);
    if (held) stack.push(...successors(held));
  }
  return seen;
}

function successors(held: Holds): Class[] {
  return [...held.plain, ...held.branches.map((b) => b.value)];
}

/** One key per union property and branch name: a class is the same branch of every union that tags it so. */
function branchKey(property: string, name: string): string {
  return JSON.stringify([property, name]);
}
