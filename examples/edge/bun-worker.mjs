// Serves the Worker bundle on Bun: `bun bun-worker.mjs`. dist-worker/worker.mjs (from `npm run build`)
// is the whole app in one module, what workerd runs: Bun starts it sooner than the packages bun.mjs
// loads. Stateless, as any Worker; the environment is the Worker's env (ALLOWED_HOSTS, JWKS, ISSUER,
// RESOURCE: see src/worker.ts). PORT (default 0: any free port).
import worker from './dist-worker/worker.mjs';

const server = Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT ?? 0), fetch: (request) => worker.fetch(request, process.env), idleTimeout: 0 });
console.error(`listening on http://${server.hostname}:${server.port}/mcp`);
