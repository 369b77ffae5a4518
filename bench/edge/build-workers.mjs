// Bundles each handler of handlers.js (its own file, so each bundle holds one) into a Worker (`export default { fetch }`) for workerd,
// as each one's users write it: Toolwright's as tsc's CommonJS (what its templates build), the SDK's
// with the SDK's and zod's exports imported by name, as in an app written in ES modules. With
// the edge example's bundler (examples/edge/scripts/bundleWorker.mjs: esbuild over tsc's
// JavaScript, never TypeScript, so decorator metadata survives). Output: .bench/edge/<kind>.mjs.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorker } from '../../examples/edge/scripts/bundleWorker.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const WORKERS_DIR = join(here, '..', '..', '.bench', 'edge');

/** Each Worker's entry: the code that makes its handler. */
const MAKE = {
  toolwright: `import { toolwright } from './toolwrightHandler.js';\nconst serve = toolwright();`,
  sdk: `import { Server, ProtocolError, ProtocolErrorCode, createMcpHandler } from '@modelcontextprotocol/server';\nimport { sdk } from './sdkHandler.js';\nconst serve = sdk({ Server, ProtocolError, ProtocolErrorCode, createMcpHandler });`,
  sdkZod: `import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';\nimport { z } from 'zod';\nimport { sdkZod } from './sdkZodHandler.js';\nconst serve = sdkZod({ McpServer, createMcpHandler }, { z });`,
};

export async function buildWorkers(kinds = Object.keys(MAKE)) {
  mkdirSync(WORKERS_DIR, { recursive: true });
  await Promise.all(
    kinds.map((kind) =>
      bundleWorker({
        entry: `${MAKE[kind]}\nexport default { fetch: (request) => serve(request) };\n`,
        resolveDir: here,
        outfile: join(WORKERS_DIR, `${kind}.mjs`),
      }),
    ),
  );
  return Object.fromEntries(kinds.map((kind) => [kind, join(WORKERS_DIR, `${kind}.mjs`)]));
}
