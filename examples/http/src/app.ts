import { createApp, type App } from '@toolwright/server';
import { TasksTools } from './tasks.tools';

/** The app: built once, served over HTTP (or stdio) by server.ts, or in memory by tests. */
export function createHttpApp(): Promise<App> {
  return createApp({
    name: 'http',
    version: '0.1.0',
    title: 'Http',
    instructions: 'Keep a task list: list_tasks before adding, so that you do not add a task twice.',
    tools: [TasksTools],
  });
}
