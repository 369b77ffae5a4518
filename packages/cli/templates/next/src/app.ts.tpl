import { createApp, type App } from '@toolwright/server';
import { TextTools } from './text.tools';

/** The app: served by the Next.js route (src/mcp.ts), over stdio by server.ts, or in memory by tests. */
export function {{appFactory}}(): Promise<App> {
  return createApp({
    name: '{{serverName}}',
    version: '0.1.0',
    title: '{{title}}',
    tools: [TextTools],
  });
}
