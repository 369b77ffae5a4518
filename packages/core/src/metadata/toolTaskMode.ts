import type { Class } from './Class';
import { TOOLS_KEY } from './keys';
import { readMemberMetadata } from './readMemberMetadata';
import type { ToolArgs } from './ToolOptions';

/** How a tool runs as a task (`@Tool({ task })`): undefined for a plain tool. */
export type TaskMode = 'optional' | 'required';

const modes = new WeakMap<Class, ReadonlyMap<string, TaskMode>>();

/**
 * The `task` option `@Tool` recorded for `methodName` of `cls` (read once per class):
 * `true` and `'optional'` are 'optional', `'required'` is 'required', anything else none.
 */
export function toolTaskMode(cls: Class, methodName: string): TaskMode | undefined {
  let byMethod = modes.get(cls);
  if (!byMethod) {
    const found = new Map<string, TaskMode>();
    for (const { member } of readMemberMetadata<ToolArgs>(cls, TOOLS_KEY)) {
      const task = member.options.task;
      if (task === true || task === 'optional') found.set(member.methodName, 'optional');
      else if (task === 'required') found.set(member.methodName, 'required');
    }
    byMethod = found;
    modes.set(cls, byMethod);
  }
  return byMethod.get(methodName);
}
