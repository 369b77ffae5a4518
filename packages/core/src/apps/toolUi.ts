import { clientExtension } from '../context/clientExtension';
import type { MemberAccess } from '../pipeline/MemberCall';
import type { MemberPipeline } from '../pipeline/PipelineArgs';
import type { BuildProblem } from '../registry/BuildProblem';
import { FLAT_RESOURCE_URI_KEY, UI_EXTENSION, type ToolUiOptions } from './McpApps';

const VISIBILITY = new Set(['model', 'app']);

/** A tool's link to its view, checked: the `_meta` it adds, and whether only the view may call it. */
export interface ToolUi {
  readonly meta: Record<string, unknown>;
  readonly appOnly: boolean;
}

/** Checks `@Tool({ ui })` and builds its `_meta` (nested `ui.resourceUri` and the flat `ui/resourceUri`); undefined after a problem. */
export function toolUiOf(ui: ToolUiOptions, where: string, problems: BuildProblem[]): ToolUi | undefined {
  const before = problems.length;
  if (typeof ui !== 'object' || ui === null || typeof ui.resource !== 'string' || !ui.resource.startsWith('ui://')) {
    problems.push({
      where,
      what: `its ui.resource ${JSON.stringify((ui as { resource?: unknown } | null)?.resource)} is not a ui:// URI`,
      fix: "link the tool to a view the app serves: @Tool({ ui: { resource: 'ui://dashboard' } }).",
    });
  }
  const visibility = ui?.visibility;
  if (visibility !== undefined && (!Array.isArray(visibility) || visibility.length === 0 || visibility.some((v) => !VISIBILITY.has(v)))) {
    problems.push({ where, what: `its ui.visibility ${JSON.stringify(visibility)} is not a non-empty list of 'model' and 'app'`, fix: "use ['model', 'app'] (the default), ['model'] or ['app']." });
  }
  if (problems.length > before) return undefined;
  const appOnly = visibility !== undefined && !visibility.includes('model');
  return {
    meta: { ui: { resourceUri: ui.resource, ...(visibility && { visibility: [...visibility] }) }, [FLAT_RESOURCE_URI_KEY]: ui.resource },
    appOnly,
  };
}

/** Lets only clients that declared the MCP Apps extension see and call a tool (app-only tools). */
export function withAppGuard(pipeline: MemberPipeline | undefined): MemberPipeline {
  const guard = (access: MemberAccess): boolean => clientExtension(access.envelope, UI_EXTENSION) !== undefined;
  return { middleware: pipeline?.middleware ?? [], guards: [guard, ...(pipeline?.guards ?? [])] };
}
