// Bundles what tsc emitted (dist/worker.js, decorator metadata included) into one ES module
// for workerd: dist-worker/worker.mjs (see bundleWorker.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorker } from './bundleWorker.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
await bundleWorker({
  entry: "import 'reflect-metadata';\nimport worker from './dist/worker.js';\nexport default worker.default;\n",
  resolveDir: root,
  outfile: join(root, 'dist-worker', 'worker.mjs'),
});
