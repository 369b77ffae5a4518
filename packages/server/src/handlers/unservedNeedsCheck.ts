import type { ToolLogger } from '@toolwright/core';
import type { CompiledTool } from '@toolwright/core/internal';
import { neededExtensionProblems } from '../extensions/neededExtensionProblems';

/** How to fix a tool whose calls an open connection refuses (see `unservedNeedsCheck`). */
const FIX =
  "add `tasks()` to this app's `extensions`, or declare the tool `task: 'optional'` to let it run as a plain call. The tool came while this connection was open (`app.add`): the app refuses connections opened since.";

/** Whether a 2026-07-28 call of `tool` is refused: see `unservedNeedsCheck`. */
export type UnservedNeedsCheck = (tool: CompiledTool) => boolean;

/**
 * What refuses a 2026-07-28 call of a tool that cannot run as declared in an app whose
 * extensions are `served` (see `neededExtensionProblems`): a `task: 'required'` tool of an app
 * without `tasks()`, which would run as a plain call. Such an app refuses to make servers (see
 * `servingRefusal`), so only a connection opened before the tool was added (`app.add`) meets
 * one. Each tool is read once and its verdict kept; the first refused call logs the reason to
 * `logger`. A tool without `execution` (not a task tool) costs one property read.
 */
export function unservedNeedsCheck(served: ReadonlySet<string>, appName: string, logger: ToolLogger): UnservedNeedsCheck {
  const verdicts = new WeakMap<CompiledTool, boolean>();
  return (tool) => {
    if (tool.descriptor.execution === undefined) return false;
    let refused = verdicts.get(tool);
    if (refused === undefined) {
      const [problem] = neededExtensionProblems([tool], served, () => `app '${appName}'`, FIX);
      refused = problem !== undefined;
      verdicts.set(tool, refused);
      if (problem) logger.error(`Toolwright: app '${appName}' answers every 2026-07-28 call of ${problem.where} with an internal error: ${problem.what}.\n  Fix: ${problem.fix}`);
    }
    return refused;
  };
}
