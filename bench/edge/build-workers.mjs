// Bundles each handler of handlers.js (its own file, so each bundle holds one) into a Worker (`export default { fetch }`) for workerd,
// as each one's users write it: Toolwright's from the weather example compiled by tsc as ES modules
// (as the edge template builds its Worker), the SDK's with the SDK's and zod's exports imported by
// name, as in an app written in ES modules. With the edge example's bundler
// (examples/edge/scripts/bundleWorker.mjs: esbuild over tsc's JavaScript, never TypeScript, so
// decorator metadata survives). Output: .bench/edge/<kind>.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorker, emitEsModules } from '../../examples/edge/scripts/bundleWorker.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const WORKERS_DIR = join(here, '..', '..', '.bench', 'edge');
/** The weather example as ES modules, which Toolwright's Worker imports its tools from. */
const WEATHER_ESM = join(WORKERS_DIR, 'weather-esm');

/** Each Worker's entry: the code that makes its handler. */
const MAKE = {
  // What toolwrightHandler.js does, written as ES modules.
  toolwright: [
    `import 'reflect-metadata';`,
    `import { createApp } from '@toolwright/server';`,
    `import { createFetchHandler } from '@toolwright/server/fetch';`,
    `import { WeatherTools } from ${JSON.stringify(join(WEATHER_ESM, 'weather.tools.js'))};`,
    `import { NotesTools } from ${JSON.stringify(join(WEATHER_ESM, 'notes.tools.js'))};`,
    `let handler;`,
    `const serve = (request) => {`,
    `  handler ??= createApp({ name: 'weather', version: '1.0.0', tools: [WeatherTools, NotesTools] }).then((app) => createFetchHandler(app, { stateless: true }));`,
    `  return handler.then((fetch) => fetch(request));`,
    `};`,
  ].join('\n'),
  sdk: `import { Server, ProtocolError, ProtocolErrorCode, createMcpHandler } from '@modelcontextprotocol/server';\nimport { sdk } from './sdkHandler.js';\nconst serve = sdk({ Server, ProtocolError, ProtocolErrorCode, createMcpHandler });`,
  sdkZod: `import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';\nimport { z } from 'zod';\nimport { sdkZod } from './sdkZodHandler.js';\nconst serve = sdkZod({ McpServer, createMcpHandler }, { z });`,
};

/**
 * Bundles the Workers of `kinds` into WORKERS_DIR, `<kind><suffix>.mjs` each. `compileHints`: as
 * bundleWorker takes it (false: no function written to compile with the script).
 */
export async function buildWorkers(kinds = Object.keys(MAKE), { suffix = '', compileHints } = {}) {
  mkdirSync(WORKERS_DIR, { recursive: true });
  if (kinds.includes('toolwright')) {
    emitEsModules(join(here, '..', '..', 'examples', 'weather', 'tsconfig.json'), WEATHER_ESM);
    // Without it esbuild would take the repo's tsconfig.json, whose paths lead @toolwright/* to the TypeScript sources.
    writeFileSync(join(WEATHER_ESM, 'tsconfig.json'), '{}\n');
  }
  await Promise.all(
    kinds.map((kind) =>
      bundleWorker({
        entry: `${MAKE[kind]}\nexport default { fetch: (request) => serve(request) };\n`,
        resolveDir: here,
        outfile: join(WORKERS_DIR, `${kind}${suffix}.mjs`),
        compileHints,
      }),
    ),
  );
  return Object.fromEntries(kinds.map((kind) => [kind, join(WORKERS_DIR, `${kind}${suffix}.mjs`)]));
}
