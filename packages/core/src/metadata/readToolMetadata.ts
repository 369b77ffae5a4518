import type { Class } from './Class';
import { PARAMS_KEY, PROMPTS_KEY, RESOURCES_KEY, TOOLS_KEY } from './keys';
import { readMemberMetadata } from './readMemberMetadata';
import { readOwn } from './ownMetadata';
import type { ParamArgs } from './ParamOptions';
import type { ToolArgs } from './ToolOptions';

/** A `@Tool` method found on a class or one of its ancestors, with its parameter records. */
export interface FoundTool {
  readonly tool: ToolArgs;
  readonly params: readonly ParamArgs[];
  /** The class whose prototype declared the decorators (for `design:*` metadata). */
  readonly declaredOn: Class;
}

/**
 * Collects the `@Tool` methods of a class, walking the prototype chain so inherited
 * tools are served; a subclass's own declaration of a method wins over its parent's.
 */
export function readToolMetadata(cls: Class): FoundTool[] {
  const found = new Map<string, FoundTool>();
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const owner = c as Class;
    const tools = readOwn<readonly ToolArgs[]>(TOOLS_KEY, owner) ?? [];
    const params = readOwn<readonly ParamArgs[]>(PARAMS_KEY, owner) ?? [];
    for (const tool of tools) {
      if (found.has(tool.methodName)) continue;
      found.set(tool.methodName, { tool, declaredOn: owner, params: params.filter((p) => p.methodName === tool.methodName) });
    }
  }
  return [...found.values()];
}

/** Whether a value is a class with at least one `@Tool`, `@Resource` or `@Prompt` method (its own or inherited). */
export function isToolClass(value: unknown): value is Class {
  return typeof value === 'function' && (readToolMetadata(value as Class).length > 0 || hasServedMembers(value as Class));
}

function hasServedMembers(cls: Class): boolean {
  return readMemberMetadata(cls, RESOURCES_KEY).length > 0 || readMemberMetadata(cls, PROMPTS_KEY).length > 0;
}
