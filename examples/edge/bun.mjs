// Serves the app on Bun: `bun bun.mjs`. It runs what tsc emitted (dist/, decorator metadata
// included): build first with `npm run build`. PORT (default 0: any free port) and STATELESS=1
// are read from the environment.
import 'reflect-metadata';
import { createEdgeHandler } from './dist/handler.js';

const handler = await createEdgeHandler({
  stateless: process.env.STATELESS === '1',
  sessions: { clientAddressOf: (request) => server.requestIP(request)?.address },
});
const server = Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT ?? 0), fetch: handler, idleTimeout: 0 });
console.error(`listening on http://${server.hostname}:${server.port}/mcp`);
