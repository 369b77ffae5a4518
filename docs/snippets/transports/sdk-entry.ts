import { createMcpHandler, type Server } from '@modelcontextprotocol/server';
import type { App } from '@toolwright/server';

/** The SDK's own web-standard entry, serving a Toolwright app: one server per request. */
export function sdkEntry(app: App) {
  return createMcpHandler(({ era }) => app.createServer({ era }) as Server);
}
