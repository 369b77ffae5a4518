// Serves one handler of handlers.js on Deno or Bun on 127.0.0.1:PORT (the bench picks the port):
//   deno run --allow-net --allow-read --allow-env --allow-sys bench/edge/serve.mjs <toolwright|sdk>
//   bun bench/edge/serve.mjs <toolwright|sdk>
/* global Deno, Bun */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const kind = (globalThis.Deno ? Deno.args : process.argv.slice(2))[0];
const port = Number(globalThis.Deno ? Deno.env.get('PORT') : process.env.PORT);
const serve = require('./handlers.js')[kind]();
if (globalThis.Deno) Deno.serve({ hostname: '127.0.0.1', port, onListen: () => undefined }, serve);
else Bun.serve({ hostname: '127.0.0.1', port, fetch: serve, idleTimeout: 0 });
