// Serves the app on Deno: `deno run --allow-net --allow-read --allow-env --allow-sys deno.mjs`.
// It runs what tsc emitted (dist/, decorator metadata included): build first with `npm run build`.
// PORT (default 0: any free port), STATELESS=1 and JWKS (bearer JWTs, see src/authFromEnv.ts) are read from the environment.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { createEdgeHandler } = require('./dist/handler.js');
const { authFromEnv } = require('./dist/authFromEnv.js');

// Deno gives the client's address beside the request: kept by request, for the anonymous session share.
const addresses = new WeakMap();
const handler = await createEdgeHandler({
  stateless: Deno.env.get('STATELESS') === '1',
  auth: authFromEnv(Deno.env.toObject()),
  sessions: { clientAddressOf: (request) => addresses.get(request) },
});
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
