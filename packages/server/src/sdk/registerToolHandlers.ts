import { stderrLogger, type Registry, type ToolLogger } from '@toolwright/core';
import type { Server, Tool } from '@modelcontextprotocol/server';
import type { Connection } from './Connection';
import { invokeTool } from './invokeTool';
import type { Surface } from '../surface/Surface';
import type { InFlight } from '../app/InFlight';
import { ErrorCodes, ProtocolError } from './ProtocolError';
import { accessDenial, callerOf, canAccess } from '../auth/canAccess';
import { createListFilter } from '../auth/createListFilter';

/** Per-registry state shared by every connection's `Server`: built once, read per call. */
export interface ToolBinding {
  readonly registry: Registry;
  readonly loggers: ReadonlyMap<string, ToolLogger>;
  readonly inFlight: InFlight;
  /** Narrows a `tools/list` page to the tools one caller may use (the page itself when none has rules). */
  readonly listFor: ReturnType<typeof createListFilter<'tools', Tool>>;
  /** What the app serves now (tools can be added, removed, enabled and disabled at runtime) and the call contexts' shared state. */
  readonly surface: Surface;
}

export function createToolBinding(registry: Registry, inFlight: InFlight, surface: Surface): ToolBinding {
  const loggers = new Map(registry.tools.map((t) => [t.name, stderrLogger(`tool ${t.name}`)]));
  return { registry, loggers, inFlight, listFor: createListFilter('tools', (t: Tool) => surface.catalog.tool(t.name)?.access), surface };
}

/** Serves `tools/list` (the cached result) and `tools/call` on one SDK `Server`. */
export function registerToolHandlers(server: Server, binding: ToolBinding, connection: Connection): void {
  const { inFlight, listFor, surface } = binding;
  // With authorization rules, each caller gets the (cached) view of the tools it may use.
  server.setRequestHandler('tools/list', (request, ctx) => listFor(surface.catalog.toolsPage(request.params?.cursor), callerOf(ctx)));
  server.setRequestHandler('tools/call', (request, ctx) => {
    const tool = surface.catalog.tool(request.params.name);
    if (!tool) {
      throw new ProtocolError(ErrorCodes.InvalidParams, `Unknown tool '${request.params.name}'. Call tools/list to see the available tools.`);
    }
    if (tool.access && !canAccess(tool.access, callerOf(ctx))) {
      throw new ProtocolError(ErrorCodes.InvalidParams, accessDenial(`Tool '${tool.name}'`, tool.access, callerOf(ctx)));
    }
    return inFlight.track(invokeTool(tool, request.params.arguments, ctx, connection, surface.env));
  });
}
