// Serves the conformance app (examples/conformance/dist, from tsc) on Deno through the fetch
// handler (sessions in memory, so both eras): `deno run --allow-net --allow-read --allow-env
// --allow-sys serve-conformance-deno.mjs`. Prints `listening on <url>` on stderr. PORT (default any free port).
/* global Deno */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { createFetchHandler } = require('@toolwright/server/fetch');
const { createConformanceApp } = require('../dist/app.js');

const handler = createFetchHandler(await createConformanceApp());
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 0),
    onListen: ({ hostname, port }) => console.error(`listening on http://${hostname}:${port}/mcp`),
  },
  (request) => handler(request),
);
