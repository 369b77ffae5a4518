import type { ExtensionContext } from '../Extension';
import type { TaskRun } from './TaskRunner';
import type { StoredTask } from './TaskStore';

/** Runs `task`'s call through the call path of the request at hand (`ctx.callTool`): the caller's own, as tasks are bound to it. */
export function requestRun(callTool: NonNullable<ExtensionContext['callTool']>, task: StoredTask): TaskRun {
  return (override) => callTool({ name: task.tool, ...(task.arguments && { arguments: task.arguments }) }, override);
}
