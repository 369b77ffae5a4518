import type { BuildProblem, ToolDefinition } from '@toolwright/core';
import { toolTaskMode } from '@toolwright/core/internal';

/** How to fix a tool that needs the tasks extension, in an app that mounts it. */
const MOUNTED_FIX =
  "add `tasks()` to this app's `extensions`, even when this app is mounted in turn by one that has it (an app that mounts such a tool serves it, and a mounted app's own extensions do not serve the clients of the app that mounts it), or declare the tool `task: 'optional'` to let it run as a plain call.";

/**
 * The problems of serving `tools` in an app whose extensions are `served` (their identifiers):
 * one for each tool that cannot run as declared without an extension the app does not serve.
 * A tool declared `@Tool({ task: 'required' })` runs only as a task, and only the tasks
 * extension (`tasks()`) runs tasks: in an app without it, a 2026-07-28 client's call would run
 * it as a plain call, which the tasks extension (SEP-2663) forbids. `whose` says where each tool
 * comes from (a mount, say), for the message; `fix` says how to fix it where the tool is served
 * (by default: in an app that mounts it).
 */
export function neededExtensionProblems(tools: readonly ToolDefinition[], served: ReadonlySet<string>, whose: (tool: ToolDefinition) => string, fix = MOUNTED_FIX): BuildProblem[] {
  // A task tool's descriptor has `execution`: the others are not read further, so an app without task tools never loads the tasks code.
  const required = tools.filter((tool) => tool.descriptor.execution !== undefined && toolTaskMode(tool.target, tool.methodName)?.mode === 'required');
  if (required.length === 0) return [];
  const { TASKS_EXTENSION_ID } = require('./tasks/TASKS_EXTENSION_ID') as typeof import('./tasks/TASKS_EXTENSION_ID');
  if (served.has(TASKS_EXTENSION_ID)) return [];
  return required.map((tool) => ({
    where: `tool '${tool.name}'`,
    what: `${tool.target.name}.${tool.methodName} (${whose(tool)}) runs only as a task (@Tool({ task: 'required' })), and this app does not serve the tasks extension ('${TASKS_EXTENSION_ID}'): its calls would run as plain calls`,
    fix,
  }));
}
