import { createApp, type App } from '@toolwright/server';
import { ConformancePrompts } from './conformance.prompts';
import { ConformanceResources } from './conformance.resources';
import { ConformanceTools } from './conformance.tools';

/** The conformance server: built once, served over stdio or HTTP by server.ts, or in memory by tests. */
export function createConformanceApp(): Promise<App> {
  return createApp({
    name: 'toolwright-conformance',
    version: '1.0.0',
    title: 'Toolwright conformance server',
    description: 'Every fixture of the official MCP conformance suite, written with Toolwright decorators.',
    websiteUrl: 'https://github.com/modelcontextprotocol/conformance',
    icons: [{ src: 'https://example.com/toolwright.png', mimeType: 'image/png', sizes: ['48x48'] }],
    instructions: 'A test server: every tool, resource and prompt exists to exercise one part of the protocol.',
    tools: [ConformanceTools, ConformanceResources, ConformancePrompts],
  });
}
