import { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from '@toolwright/server/fetch';
import { createEdgeApp } from './app';

/** The app's MCP endpoint as a web-standard handler: `Deno.serve(handler)`, `Bun.serve({ fetch: handler })`. */
export async function createEdgeHandler(options: FetchHandlerOptions = {}): Promise<FetchHandler> {
  return createFetchHandler(await createEdgeApp(), options);
}
