import { Hono } from 'hono';
import { toolwrightMiddleware, type ToolwrightHonoOptions } from '@toolwright/hono';
import { createEdgeApp } from './app';

/**
 * The same app mounted in a Hono app beside a route of Hono's own: `@toolwright/hono`'s
 * middleware on the fetch handler. Served by `Deno.serve(web.fetch)`, `Bun.serve(web)` and a
 * Worker's `web.fetch(request, env, ctx)` (hono-deno.mjs, hono-bun.mjs, src/honoWorker.ts).
 */
export async function createHonoApp(options: ToolwrightHonoOptions = {}): Promise<Hono> {
  const web = new Hono();
  web.get('/', (c) => c.json({ up: true, served: 'by hono' }));
  web.use(toolwrightMiddleware(await createEdgeApp(), options));
  return web;
}
