// Serves the Hono app (src/honoApp.ts) on Deno: `deno run --allow-net --allow-read --allow-env --allow-sys hono-deno.mjs`.
// Deno.serve hands Hono its connection info as `c.env` (the client address the sessions are counted by).
// It runs what tsc emitted (dist/): build first with `npm run build`. PORT (default 0: any free port).
/* global Deno */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { createHonoApp } = require('./dist/honoApp.js');

const web = await createHonoApp();
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 0),
    onListen: ({ hostname, port }) => console.error(`listening on http://${hostname}:${port}/mcp`),
  },
  web.fetch,
);
