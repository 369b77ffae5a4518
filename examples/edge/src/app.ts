import { createApp, type App } from '@toolwright/server';
import { NoteTools } from './notes.tools';

/** The app, the same on every runtime: node, Deno and Bun serve it through the fetch handler. */
export function createEdgeApp(): Promise<App> {
  return createApp({ name: 'edge', version: '0.1.0', tools: [NoteTools] });
}
