// Serves the conformance app (examples/conformance/dist, from tsc) on Deno through the fetch
// handler (sessions in memory, so both eras): `deno run --allow-net --allow-read --allow-env
// --allow-sys serve-conformance-deno.mjs`. Prints `listening on <url>` on stderr. PORT (default any free port).
/* global Deno */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { createFetchHandler } = require('@toolwright/server/fetch');
const { createConformanceApp } = require('../dist/app.js');

// Each request's client address, as the Deno guide does it: anonymous sessions are counted per client, and the
// suite's own (loopback) are not rate limited, as on the node listener. Without it every anonymous caller shares
// one initialize budget, which the suite's scenarios, run back to back, spend (the last ones then get 429).
const addresses = new WeakMap();
const handler = createFetchHandler(await createConformanceApp(), { sessions: { clientAddressOf: (request) => addresses.get(request) } });
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 0),
    onListen: ({ hostname, port }) => console.error(`listening on http://${hostname}:${port}/mcp`),
  },
  (request, info) => {
    addresses.set(request, info.remoteAddr.hostname);
    return handler(request);
  },
);
