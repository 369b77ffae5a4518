import type { Class } from './Class';
import { TOOLS_KEY } from './keys';
import { readMemberMetadata } from './readMemberMetadata';
import type { ToolArgs } from './ToolOptions';

/** How a tool runs as a task (`@Tool({ task })`). */
export interface TaskMode {
  /** 'optional': a task when the client declared the extension; 'required': only as a task. */
  readonly mode: 'optional' | 'required';
  /** Its first questions are a plain round trip; the task starts after them. */
  readonly inputFirst: boolean;
  /** Another instance may run the call again from the start when the instance running it stops. */
  readonly restartable: boolean;
}

const modes = new WeakMap<Class, ReadonlyMap<string, TaskMode>>();

/**
 * The `task` option `@Tool` recorded for `methodName` of `cls` (read once per class):
 * `true` and `'optional'` are optional, `'required'` required, an object says both; undefined
 * for a plain tool.
 */
export function toolTaskMode(cls: Class, methodName: string): TaskMode | undefined {
  let byMethod = modes.get(cls);
  if (!byMethod) {
    const found = new Map<string, TaskMode>();
    for (const { member } of readMemberMetadata<ToolArgs>(cls, TOOLS_KEY)) {
      const task = member.options.task;
      if (task === true || task === 'optional') found.set(member.methodName, { mode: 'optional', inputFirst: false, restartable: false });
      else if (task === 'required') found.set(member.methodName, { mode: 'required', inputFirst: false, restartable: false });
      else if (typeof task === 'object' && task !== null) {
        const { mode, inputFirst, restartable } = task as { mode?: unknown; inputFirst?: unknown; restartable?: unknown };
        found.set(member.methodName, { mode: mode === 'required' ? 'required' : 'optional', inputFirst: inputFirst === true, restartable: restartable === true });
      }
    }
    byMethod = found;
    modes.set(cls, byMethod);
  }
  return byMethod.get(methodName);
}
