// Serves the conformance app as a Cloudflare Worker on workerd, through Miniflare, built as the
// edge template builds a Worker: tsc compiles the app once more as ES modules (dist/worker/esm,
// decorator metadata included), the edge example's bundler bundles that JavaScript, and the
// fetch handler serves it stateless, as a Worker serves it. Prints `listening on <url>` on stderr; SIGTERM stops it.
// `node serve-conformance-workerd.mjs` (PORT, default any free port; COMPATIBILITY_DATE, default the
// edge template's date; MINIFLARE_WORKERD_PATH, another workerd binary, as scripts/test-workerd-latest.js runs it).
import { Miniflare } from 'miniflare';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorker, emitEsModules } from '../../edge/scripts/bundleWorker.mjs';

const example = join(dirname(fileURLToPath(import.meta.url)), '..');
// Beside tsc's output it is made from (dist/ is a build folder, never committed).
const out = join(example, 'dist', 'worker');
const scriptPath = join(out, 'worker.mjs');
emitEsModules(join(example, 'tsconfig.json'), join(out, 'esm'));
await bundleWorker({
  entry: `import 'reflect-metadata';
import { createFetchHandler } from '@toolwright/server/fetch';
import { createConformanceApp } from './dist/worker/esm/app.js';

let handler;
export default {
  fetch(request) {
    handler ??= createConformanceApp().then((app) => createFetchHandler(app, { stateless: true }));
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
  compatibilityDate: process.env.COMPATIBILITY_DATE || '2026-07-01',
  compatibilityFlags: ['nodejs_compat'],
  host: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
});
const url = await mf.ready;
console.error(`listening on ${new URL('/mcp', url).href}`);
const stop = () => void mf.dispose().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
