import type { Class } from './Class';
import { PARAMS_KEY, PROMPTS_KEY, RESOURCES_KEY, TOOLS_KEY } from './keys';
import { readOwn } from './ownMetadata';
import type { ParamArgs } from './ParamOptions';

/** A decorated method (tool, resource, prompt) found on a class or an ancestor, with its parameter records. */
export interface FoundMember<A extends { readonly methodName: string }> {
  readonly member: A;
  readonly params: readonly ParamArgs[];
  /** The class whose prototype declared the decorators (for `design:*` metadata). */
  readonly declaredOn: Class;
}

/**
 * Collects the methods recorded under `key`, walking the prototype chain so inherited
 * members are served; a subclass's own declaration of a method wins over its parent's.
 */
export function readMemberMetadata<A extends { readonly methodName: string }>(cls: Class, key: string): FoundMember<A>[] {
  const found = new Map<string, FoundMember<A>>();
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const owner = c as Class;
    const members = readOwn<readonly A[]>(key, owner) ?? [];
    const params = readOwn<readonly ParamArgs[]>(PARAMS_KEY, owner) ?? [];
    for (const member of members) {
      if (found.has(member.methodName)) continue;
      found.set(member.methodName, { member, declaredOn: owner, params: params.filter((p) => p.methodName === member.methodName) });
    }
  }
  return [...found.values()];
}

/** Whether a class has at least one `@Tool`, `@Resource` or `@Prompt` method (its own or inherited). */
export function hasServedMethods(cls: Class): boolean {
  return [TOOLS_KEY, RESOURCES_KEY, PROMPTS_KEY].some((key) => readMemberMetadata(cls, key).length > 0);
}

/** Whether a module export is a class Toolwright serves (see `hasServedMethods`). */
export function isToolClass(value: unknown): value is Class {
  return typeof value === 'function' && hasServedMethods(value as Class);
}
