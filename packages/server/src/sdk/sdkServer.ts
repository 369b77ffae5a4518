import { ToolwrightError } from '@toolwright/core';
import { Server } from './sdk';

/**
 * The SDK `Server` behind a server an app created (`ServerFactory.createServer`, typed as
 * Toolwright's own `McpServerHandle`), for the internals that need the SDK's class. Checked:
 * anything else is a bug here, not a user's error.
 */
export function sdkServer(server: object): Server {
  if (server instanceof Server) return server;
  throw new ToolwrightError(`Expected a server made by app.createServer() (an MCP SDK Server); got ${server.constructor?.name ?? typeof server}. Please report it.`);
}
