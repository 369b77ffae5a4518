// Serves the Worker (dist-worker/worker.mjs, from `npm run build`) on workerd, the runtime of
// Cloudflare Workers, through Miniflare: http://127.0.0.1:3000/mcp (PORT sets the port, 0 any
// free one). The compatibility settings are wrangler.jsonc's; ALLOWED_HOSTS is passed on when set.
import { Miniflare } from 'miniflare';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// wrangler.jsonc without its comments (lines starting with //): one source for both.
const config = JSON.parse(
  readFileSync(join(root, 'wrangler.jsonc'), 'utf8')
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .join('\n'),
);
const mf = new Miniflare({
  modules: true,
  scriptPath: join(root, config.main),
  compatibilityDate: config.compatibility_date,
  compatibilityFlags: config.compatibility_flags,
  bindings: process.env.ALLOWED_HOSTS ? { ALLOWED_HOSTS: process.env.ALLOWED_HOSTS } : {},
  host: '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
});
const url = await mf.ready;
console.error(`listening on ${new URL('/mcp', url).href}`);
const stop = () => void mf.dispose().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
