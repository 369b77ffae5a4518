// Serves the Worker (dist-worker/worker.mjs, from `npm run build`; WORKER=hono-worker.mjs for the Hono app) on workerd through Miniflare,
// on 127.0.0.1 (PORT, default any free port), with the nodejs_compat flag. Bindings: JWKS,
// ISSUER, RESOURCE, ALLOWED_HOSTS from the environment, when set. COMPATIBILITY_DATE replaces wrangler.toml's date, and
// MINIFLARE_WORKERD_PATH (read by Miniflare) names another workerd binary: scripts/test-workerd-latest.js sets both.
import { Miniflare } from 'miniflare';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bindings = Object.fromEntries(['JWKS', 'ISSUER', 'RESOURCE', 'ALLOWED_HOSTS'].filter((name) => process.env[name]).map((name) => [name, process.env[name]]));
const mf = new Miniflare({
  modules: true,
  scriptPath: join(root, 'dist-worker', process.env.WORKER ?? 'worker.mjs'),
  compatibilityDate: process.env.COMPATIBILITY_DATE || '2026-07-01',
  compatibilityFlags: ['nodejs_compat'],
  // No Request.cf object: Miniflare would fetch one from Cloudflare first (none here: no network).
  cf: false,
  bindings,
  host: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
});
const url = await mf.ready;
console.error(`listening on ${new URL('/mcp', url).href}`);
const stop = () => void mf.dispose().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
