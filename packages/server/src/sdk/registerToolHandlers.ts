import { stderrLogger, type Registry, type ToolDescriptor, type ToolLogger } from '@toolwright/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
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
  readonly listFor: ReturnType<typeof createListFilter<'tools', ToolDescriptor>>;
  /** What the app serves now (tools can be added, removed, enabled and disabled at runtime) and the call contexts' shared state. */
  readonly surface: Surface;
}

export function createToolBinding(registry: Registry, inFlight: InFlight, surface: Surface): ToolBinding {
  const loggers = new Map(registry.tools.map((t) => [t.name, stderrLogger(`tool ${t.name}`)]));
  return { registry, loggers, inFlight, listFor: createListFilter('tools', (t: ToolDescriptor) => surface.catalog.tool(t.name)?.access), surface };
}

/** Serves `tools/list` (the cached result) and `tools/call` on one SDK `Server`. */
export function registerToolHandlers(server: Server, binding: ToolBinding, connection: Connection): void {
  const { inFlight, listFor, surface } = binding;
  // The SDK's result type is mutable; the cached list is frozen and only ever serialized.
  // With authorization rules, each caller gets the (cached) view of the tools it may use.
  server.setRequestHandler(ListToolsRequestSchema, (request, extra) => listFor(surface.catalog.toolsPage(request.params?.cursor), callerOf(extra)) as never);
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = surface.catalog.tool(request.params.name);
    if (!tool) {
      throw new ProtocolError(ErrorCodes.InvalidParams, `Unknown tool '${request.params.name}'. Call tools/list to see the available tools.`);
    }
    if (tool.access && !canAccess(tool.access, callerOf(extra))) {
      throw new ProtocolError(ErrorCodes.InvalidParams, accessDenial(`Tool '${tool.name}'`, tool.access, callerOf(extra)));
    }
    return inFlight.track(invokeTool(tool, request.params.arguments, extra, connection, surface.env)) as never;
  });
}
