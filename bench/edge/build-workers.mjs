// Bundles each handler of handlers.js (its own file, so each bundle holds one) into a Worker (`export default { fetch }`) for workerd, with
// the edge example's bundler (examples/edge/scripts/bundleWorker.mjs: esbuild over tsc's
// JavaScript, never TypeScript, so decorator metadata survives). Output: .bench/edge/<kind>.mjs.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorker } from '../../examples/edge/scripts/bundleWorker.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const WORKERS_DIR = join(here, '..', '..', '.bench', 'edge');

export async function buildWorkers(kinds = ['toolwright', 'sdk', 'sdkZod']) {
  mkdirSync(WORKERS_DIR, { recursive: true });
  await Promise.all(
    kinds.map((kind) =>
      bundleWorker({
        entry: `import handlers from './${kind}Handler.js';\nconst serve = handlers.${kind}();\nexport default { fetch: (request) => serve(request) };\n`,
        resolveDir: here,
        outfile: join(WORKERS_DIR, `${kind}.mjs`),
      }),
    ),
  );
  return Object.fromEntries(kinds.map((kind) => [kind, join(WORKERS_DIR, `${kind}.mjs`)]));
}
