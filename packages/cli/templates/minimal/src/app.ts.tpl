import { createApp, type App } from '@toolwright/server';
import { GreetingTools } from './greeting.tools';

/** The app: built once, served over stdio or HTTP by server.ts, or in memory by tests. */
export function {{appFactory}}(): Promise<App> {
  return createApp({
    name: '{{serverName}}',
    version: '0.1.0',
    title: '{{title}}',
    tools: [GreetingTools],
  });
}
