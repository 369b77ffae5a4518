// Bundles this example's Workers into one ES module each for workerd: dist-worker/worker.mjs and
// dist-worker/hono-worker.mjs (see bundleWorker.mjs). Their code is the app compiled once more by tsc,
// as ES modules (dist-worker/esm/, decorator metadata included), which bundle smaller and start
// sooner than tsc's CommonJS in dist/.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorker, emitEsModules } from './bundleWorker.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
emitEsModules(join(root, 'tsconfig.json'), join(root, 'dist-worker', 'esm'));
const entry = (file) => `import 'reflect-metadata';\nimport worker from './dist-worker/esm/${file}';\nexport default worker;\n`;
await Promise.all([
  bundleWorker({ entry: entry('worker.js'), resolveDir: root, outfile: join(root, 'dist-worker', 'worker.mjs') }),
  bundleWorker({ entry: entry('honoWorker.js'), resolveDir: root, outfile: join(root, 'dist-worker', 'hono-worker.mjs') }),
]);
