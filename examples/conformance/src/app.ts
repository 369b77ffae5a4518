import type { Class } from '@toolwright/core';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createApp, skills, tasks, type App } from '@toolwright/server';
import { ConformanceDiagnostics } from './conformance.diagnostics';
import { ConformancePrompts } from './conformance.prompts';
import { ConformanceResources } from './conformance.resources';
import { ConformanceRoundTrips } from './conformance.round-trips';
import { ConformanceTasks } from './conformance.tasks';
import { ConformanceTools } from './conformance.tools';

/** The example's skills folder, where the runtime has the example's files (not in a Worker bundle, which has no __dirname). */
function skillsFolder(): string | undefined {
  const dir = typeof __dirname === 'string' ? join(__dirname, '..', 'skills') : undefined;
  return dir && existsSync(dir) ? dir : undefined;
}

/** The conformance server: built once, served over stdio or HTTP by server.ts, or in memory by tests. */
export async function createConformanceApp(): Promise<App> {
  const skillsDir = skillsFolder();
  // The diagnostic tools change the app's lists, so they get the app itself; the other
  // fixture classes need nothing. One instance of each, made on first use.
  const instances = new Map<Class, unknown>();
  const app = await createApp({
    name: 'toolwright-conformance',
    version: '1.0.0',
    title: 'Toolwright conformance server',
    description: 'Every fixture of the official MCP conformance suite, written with Toolwright decorators.',
    websiteUrl: 'https://github.com/modelcontextprotocol/conformance',
    icons: [{ src: 'https://example.com/toolwright.png', mimeType: 'image/png', sizes: ['48x48'] }],
    instructions: 'A test server: every tool, resource and prompt exists to exercise one part of the protocol.',
    tools: [ConformanceTools, ConformanceRoundTrips, ConformanceDiagnostics, ConformanceResources, ConformancePrompts, ConformanceTasks],
    // The Agent Skills in ../skills (SEP-2640): skills/list, skills/get, skill:// resources, directory
    // reads. A runtime without the example's files (the Worker bundle on workerd) serves none.
    // Tasks (SEP-2663): the @Tool({ task }) fixtures of ConformanceTasks run as tasks for clients that declare the extension.
    extensions: [tasks(), ...(skillsDir ? [skills({ dir: skillsDir })] : [])],
    container: {
      get<T>(cls: Class<T>): T {
        if (!instances.has(cls)) instances.set(cls, cls === (ConformanceDiagnostics as Class) ? new ConformanceDiagnostics(() => app) : new cls());
        return instances.get(cls) as T;
      },
    },
  });
  return app;
}
