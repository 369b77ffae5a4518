import { createApp, type App } from '@toolwright/server';
import { TextTools } from './text.tools';

/** The app, the same everywhere: the Worker serves it through the fetch handler, server.ts on Node, tests in memory. */
export function {{appFactory}}(): Promise<App> {
  return createApp({
    name: '{{serverName}}',
    version: '0.1.0',
    title: '{{title}}',
    tools: [TextTools],
  });
}
