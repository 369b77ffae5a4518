// Serves one handler of handlers.js on Deno or Bun on 127.0.0.1:PORT (the bench picks the port):
//   deno run --allow-net --allow-read --allow-env --allow-sys bench/edge/serve.mjs <toolwright|sdk|sdkZod> [bundle]
//   bun bench/edge/serve.mjs <toolwright|sdk|sdkZod> [bundle]
// With `bundle`: the handler's Worker file instead (.bench/edge/<kind>.mjs, from build-workers.mjs:
// one module, what workerd runs), whose default export's fetch it serves.
/* global Deno, Bun */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const [kind, bundle] = globalThis.Deno ? Deno.args : process.argv.slice(2);
const port = Number(globalThis.Deno ? Deno.env.get('PORT') : process.env.PORT);
const worker = bundle === 'bundle' ? (await import(new URL(`../../.bench/edge/${kind}.mjs`, import.meta.url).href)).default : undefined;
const serve = worker ? (request) => worker.fetch(request) : require('./handlers.js')[kind]();
if (globalThis.Deno) Deno.serve({ hostname: '127.0.0.1', port, onListen: () => undefined }, serve);
else Bun.serve({ hostname: '127.0.0.1', port, fetch: serve, idleTimeout: 0 });
