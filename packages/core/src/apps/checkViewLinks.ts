import type { BuildProblem } from '../registry/BuildProblem';
import type { CompiledResource, CompiledTool } from '../registry/CompiledRegistry';
import { MCP_APP_MIME_TYPE } from './McpApps';

/** Every tool linked to a view (`@Tool({ ui })`) names a `@UiResource` of the same app. */
export function checkViewLinks(tools: readonly CompiledTool[], resources: readonly CompiledResource[], problems: BuildProblem[]): void {
  const views = new Set(resources.filter((r) => r.descriptor.mimeType === MCP_APP_MIME_TYPE).map((r) => r.uri));
  for (const tool of tools) {
    const ui = tool.descriptor._meta?.ui as { resourceUri?: unknown } | undefined;
    const uri = ui?.resourceUri;
    if (typeof uri !== 'string' || views.has(uri)) continue;
    problems.push({
      where: `${tool.target.name}.${tool.methodName}`,
      what: `its ui.resource '${uri}' is no view of this app`,
      fix: `declare it on a method that returns the view's HTML: @UiResource('${uri}'), in a class listed in \`tools\`${views.size > 0 ? `; the app's views are ${[...views].join(', ')}` : ''}.`,
    });
  }
}
