import { stderrLogger, type Registry, type ToolLogger } from '@toolwright/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createToolContext } from './createToolContext';
import type { InFlight } from '../app/InFlight';
import { ErrorCodes, ProtocolError } from './ProtocolError';

/** Per-registry state shared by every connection's `Server`: built once, read per call. */
export interface ToolBinding {
  readonly registry: Registry;
  readonly loggers: ReadonlyMap<string, ToolLogger>;
  readonly inFlight: InFlight;
}

export function createToolBinding(registry: Registry, inFlight: InFlight): ToolBinding {
  const loggers = new Map(registry.tools.map((t) => [t.name, stderrLogger(`tool ${t.name}`)]));
  return { registry, loggers, inFlight };
}

/** Serves `tools/list` (the cached result) and `tools/call` on one SDK `Server`. */
export function registerToolHandlers(server: Server, binding: ToolBinding): void {
  const { registry, loggers, inFlight } = binding;
  // The SDK's result type is mutable; the cached list is frozen and only ever serialized.
  server.setRequestHandler(ListToolsRequestSchema, () => registry.toolList as never);
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = registry.tool(request.params.name);
    if (!tool) {
      throw new ProtocolError(ErrorCodes.InvalidParams, `Unknown tool '${request.params.name}'. Call tools/list to see the available tools.`);
    }
    const ctx = tool.usesContext ? createToolContext(tool, extra, loggers.get(tool.name)!) : undefined;
    return inFlight.track(tool.call(request.params.arguments, ctx)) as never;
  });
}
