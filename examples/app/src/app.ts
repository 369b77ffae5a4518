import { apps, createApp, type App } from '@toolwright/server';
import { CounterApp } from './counter.app';

/** The app: built once, served over stdio or HTTP by server.ts, or in memory by tests. */
export function createMcpApp(): Promise<App> {
  return createApp({
    name: 'app',
    version: '0.1.0',
    title: 'App',
    tools: [CounterApp],
    // MCP Apps (io.modelcontextprotocol/ui): hosts that render views (Claude, ChatGPT, VS Code, Goose, ...) read the ui:// view.
    extensions: [apps()],
  });
}
