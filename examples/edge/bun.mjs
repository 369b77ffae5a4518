// Serves the app on Bun: `bun bun.mjs`. It runs what tsc emitted (dist/, decorator metadata
// included): build first with `npm run build`. PORT (default 0: any free port), STATELESS=1 and
// JWKS (bearer JWTs, see src/authFromEnv.ts) are read from the environment.
import 'reflect-metadata';
import { authFromEnv } from './dist/authFromEnv.js';
import { createEdgeHandler } from './dist/handler.js';

const handler = await createEdgeHandler({
  stateless: process.env.STATELESS === '1',
  auth: authFromEnv(process.env),
  sessions: { clientAddressOf: (request) => server.requestIP(request)?.address },
});
const server = Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT ?? 0), fetch: handler, idleTimeout: 0 });
console.error(`listening on http://${server.hostname}:${server.port}/mcp`);
