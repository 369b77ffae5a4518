// Bundles what tsc emitted (dist/worker.js and dist/honoWorker.js, decorator metadata included)
// into one ES module each for workerd: dist-worker/worker.mjs and dist-worker/hono-worker.mjs (see bundleWorker.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorker } from './bundleWorker.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = (file) => `import 'reflect-metadata';\nimport worker from './dist/${file}';\nexport default worker.default;\n`;
await Promise.all([
  bundleWorker({ entry: entry('worker.js'), resolveDir: root, outfile: join(root, 'dist-worker', 'worker.mjs') }),
  bundleWorker({ entry: entry('honoWorker.js'), resolveDir: root, outfile: join(root, 'dist-worker', 'hono-worker.mjs') }),
]);
