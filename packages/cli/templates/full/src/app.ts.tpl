import { createApp, tasks, type App } from '@toolwright/server';
import { AuditMiddleware } from './audit.middleware';
import { LibraryPrompts } from './library.prompts';
import { LibraryResources } from './library.resources';
import { LibraryTools } from './library.tools';
import { ReportTools } from './report.tools';

/** The app: built once, served over stdio or HTTP by server.ts, or in memory by tests. */
export function {{appFactory}}(): Promise<App> {
  return createApp({
    name: '{{serverName}}',
    version: '0.1.0',
    title: '{{title}}',
    instructions: 'A lending library. Search before lending; lend by book id. The catalogue is also a resource.',
    // Tool, resource and prompt classes all go in one list.
    tools: [LibraryTools, ReportTools, LibraryResources, LibraryPrompts],
    // Around every call, outermost first; classes and methods can add their own with @UseMiddleware.
    middleware: [AuditMiddleware],
    // Long-running tools (@Tool({ task })) run as tasks for clients that declared the extension; tasks are kept in memory here (RedisTaskStore for several instances).
    extensions: [tasks({ pollIntervalMs: 500 })],
  });
}
