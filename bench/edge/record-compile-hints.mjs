#!/usr/bin/env node
// Records which functions of a Worker a cold start runs, for the Worker bundler to write them so
// that V8 compiles them with the script (examples/edge/scripts/bundleWorker.mjs, COMPILE_HINTS).
// Builds the bench's Toolwright Worker (build-workers.mjs) with no hints, runs it in a fresh node
// for each era's tools/call (requests.js, the request the edge benches send), from its start to the
// answer, and reads V8's function coverage (NODE_V8_COVERAGE: a function called once counts,
// whether V8 compiled it with the script or on its first call). The functions called in either
// era are written, by key (compilableFunctions), to examples/edge/scripts/worker-compile-hints.json
// and to its copy in the edge template (packages/cli/templates/edge/scripts/worker-compile-hints.json.tpl).
//   node bench/edge/record-compile-hints.mjs [--check]
// --check writes nothing and exits 1 when the files differ from a new recording. Needs `npm run
// build`, and node 22 or later to run the Worker (process.getBuiltinModule): this node, or
// scripts/node-versions' node 24, installed there on first use (scripts/nodeVersions.js).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compilableFunctions } from '../../examples/edge/scripts/bundleWorker.mjs';
import { buildWorkers } from './build-workers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, '..', '..');
const HINTS = [join(ROOT, 'examples', 'edge', 'scripts', 'worker-compile-hints.json'), join(ROOT, 'packages', 'cli', 'templates', 'edge', 'scripts', 'worker-compile-hints.json.tpl')];
const ERAS = ['2026-07-28', '2025-11-25'];
const require = createRequire(import.meta.url);
const ts = require('typescript');
const { nodeBinary } = require('../../scripts/nodeVersions.js');

/** A node that has process.getBuiltinModule (22 or later): this one, or the pinned node 24 (installed on first use). */
function node() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  return nodeBinary('24');
}

/** The end offsets of the functions of `worker` that one start answering `era`'s tools/call runs. */
function calledFunctions(worker, era) {
  const coverage = mkdtempSync(join(tmpdir(), 'worker-coverage-'));
  const run = [
    `const { ERAS } = (await import(${JSON.stringify(pathToFileURL(join(here, 'requests.js')).href)})).default;`,
    `const worker = (await import(${JSON.stringify(pathToFileURL(worker).href)})).default;`,
    `const { body, headers } = ERAS[${JSON.stringify(era)}];`,
    `const response = await worker.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }));`,
    `const text = await response.text();`,
    `if (!text.includes('"result"')) throw new Error('the Worker answered ' + response.status + ': ' + text.slice(0, 200));`,
  ].join('\n');
  try {
    execFileSync(node(), ['--input-type=module', '-e', run], { env: { ...process.env, NODE_V8_COVERAGE: coverage }, stdio: ['ignore', 'ignore', 'inherit'] });
    const ends = new Set();
    const url = pathToFileURL(worker).href;
    for (const file of readdirSync(coverage))
      for (const script of JSON.parse(readFileSync(join(coverage, file), 'utf8')).result)
        if (script.url === url) for (const { ranges } of script.functions) if (ranges[0].count > 0) ends.add(ranges[0].endOffset);
    return ends;
  } finally {
    rmSync(coverage, { recursive: true, force: true });
  }
}

const { toolwright: worker } = await buildWorkers(['toolwright'], { suffix: '-unhinted', compileHints: false });
const called = new Set(ERAS.flatMap((era) => [...calledFunctions(worker, era)]));
const source = ts.createSourceFile(worker, readFileSync(worker, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
const keys = [
  ...new Set(
    compilableFunctions(ts, source)
      .filter(({ node, how }) => how !== undefined && how !== 'written' && called.has(node.end))
      .map(({ key }) => key),
  ),
].sort();
const text = `${JSON.stringify(
  {
    about:
      'The functions of a Worker that a cold start runs up to its first answered tools/call (either era), for bundle-worker to write so that V8 compiles them with the script. Recorded by bench/edge/record-compile-hints.mjs in the Toolwright repository.',
    functions: keys,
  },
  null,
  2,
)}\n`;
if (process.argv.includes('--check')) {
  const stale = HINTS.filter((file) => !existsSync(file) || readFileSync(file, 'utf8') !== text);
  if (stale.length > 0) {
    console.error(`record-compile-hints: out of date: ${stale.join(', ')}. Run node bench/edge/record-compile-hints.mjs and commit the files.`);
    process.exit(1);
  }
  console.log(`record-compile-hints: up to date (${keys.length} functions).`);
} else {
  for (const file of HINTS) writeFileSync(file, text);
  console.log(`record-compile-hints: ${keys.length} functions written to ${HINTS.join(' and ')}.`);
}
