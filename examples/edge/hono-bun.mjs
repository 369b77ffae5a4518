// Serves the Hono app (src/honoApp.ts) on Bun: `bun hono-bun.mjs`. Bun hands Hono its server as
// `c.env` (`server.requestIP()`: the client address the sessions are counted by).
// It runs what tsc emitted (dist/): build first with `npm run build`. PORT (default 0: any free port).
/* global Bun */
import 'reflect-metadata';
import { createHonoApp } from './dist/honoApp.js';

const web = await createHonoApp();
const server = Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT ?? 0), fetch: web.fetch, idleTimeout: 0 });
console.error(`listening on http://${server.hostname}:${server.port}/mcp`);
