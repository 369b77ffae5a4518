import { createApp, type App } from '@toolwright/server';
import { TodosTools } from './todos.tools';

/** The MCP app: built once, mounted in Express by web.ts, served over stdio by server.ts, or in memory by tests. */
export function {{appFactory}}(): Promise<App> {
  return createApp({
    name: '{{serverName}}',
    version: '0.1.0',
    title: '{{title}}',
    instructions: 'Keep a todo list: list_todos before adding, so that you do not add a todo twice.',
    tools: [TodosTools],
  });
}
