// Serves the Worker bundle on Deno: `deno run --allow-net --allow-read --allow-env --allow-sys deno-worker.mjs`.
// dist-worker/worker.mjs (from `npm run build`) is the whole app in one module, what workerd runs:
// Deno starts it sooner than the packages deno.mjs loads. Stateless, as any Worker; the environment
// is the Worker's env (ALLOWED_HOSTS, JWKS, ISSUER, RESOURCE: see src/worker.ts). PORT (default 0: any free port).
import worker from './dist-worker/worker.mjs';

const env = Deno.env.toObject();
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(env.PORT ?? 0),
    onListen: ({ hostname, port }) => console.error(`listening on http://${hostname}:${port}/mcp`),
  },
  (request) => worker.fetch(request, env),
);
