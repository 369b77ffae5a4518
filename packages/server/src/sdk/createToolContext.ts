import type { AuthInfo, ToolContext, ToolDefinition, ToolLogger } from '@toolwright/core';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

export type HandlerExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The `@Ctx()` object for one call, read from the SDK's handler extra. */
export function createToolContext(tool: ToolDefinition, extra: HandlerExtra, log: ToolLogger): ToolContext {
  return {
    toolName: tool.name,
    requestId: extra.requestId,
    signal: extra.signal,
    sessionId: extra.sessionId,
    headers: extra.requestInfo?.headers,
    authInfo: extra.authInfo as AuthInfo | undefined,
    meta: extra._meta,
    log,
  };
}
