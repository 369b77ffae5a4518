// Serves the conformance app (examples/conformance/dist, from tsc) as a Cloudflare Worker on
// workerd, through Miniflare: the JavaScript tsc emitted is bundled (decorator metadata
// included) with the edge example's bundler, and served stateless through the fetch handler,
// as a Worker serves it. Prints `listening on <url>` on stderr; SIGTERM stops it.
// `node serve-conformance-workerd.mjs` (PORT, default any free port).
import { Miniflare } from 'miniflare';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorker } from '../../edge/scripts/bundleWorker.mjs';

const example = join(dirname(fileURLToPath(import.meta.url)), '..');
// Beside tsc's output it is made from (dist/ is a build folder, never committed).
const out = join(example, 'dist', 'worker');
const scriptPath = join(out, 'worker.mjs');
await bundleWorker({
  entry: `import 'reflect-metadata';
import { createFetchHandler } from '@toolwright/server/fetch';
import conformance from './dist/app.js';

let handler;
export default {
  fetch(request) {
    handler ??= conformance.createConformanceApp().then((app) => createFetchHandler(app, { stateless: true }));
    return handler.then((serve) => serve(request));
  },
};
`,
  resolveDir: example,
  outfile: scriptPath,
});
const mf = new Miniflare({
  modules: true,
  scriptPath,
  modulesRoot: out,
  compatibilityDate: '2026-07-01',
  compatibilityFlags: ['nodejs_compat'],
  host: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
});
const url = await mf.ready;
console.error(`listening on ${new URL('/mcp', url).href}`);
const stop = () => void mf.dispose().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
