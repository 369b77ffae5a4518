#!/usr/bin/env node
// bench/edge's two handlers (handlers.js) called in this process on node, no HTTP: a `Request` in,
// the answer's text out, one call at a time, both handlers in the same run. What a Worker pays
// per call once its isolate is warm, without the runtime's socket and scheduling noise.
//   node bench/edge/inprocess.js [--calls 3000] [--warm 500] [--rounds 3] [--era 2026-07-28|2025-11-25]
//     CPU time (process.cpuUsage) per call of each handler, rounds alternating between them
//   node bench/edge/inprocess.js --callgrind [--calls 1000] [--warm 1000] [--era ...]
//     instructions per call (valgrind's callgrind, counting only the measured calls): steady on a
//     busy machine where CPU time is not; each handler in a process of its own, node with
//     --single-threaded (no background GC or compiler threads, whose share would move the count)
//   node bench/edge/inprocess.js --only toolwright|sdk ...   one handler (e.g. under node --cpu-prof)
// Needs `npm run build` (the handlers load the built packages and examples/weather/dist).
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const { readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const handlers = require('./handlers.js');

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const arg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const CALLGRIND = flag('callgrind');
const CALLS = Number(arg('calls', CALLGRIND ? 1000 : 3000));
const WARM = Number(arg('warm', CALLGRIND ? 1000 : 500));
const ROUNDS = Number(arg('rounds', 3));
const ERA = arg('era', '2026-07-28');
const ONLY = arg('only', undefined);
const COUNTING = flag('counting'); // set when this process runs under callgrind

const { ERAS } = require('./requests.js');
const { body, headers } = ERAS[ERA];
const requestHeaders = { ...headers, host: '127.0.0.1:8787', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** One call: resolves with the tool's text, throws on anything but a result. */
async function call(serve) {
  const response = await serve(new Request('http://127.0.0.1:8787/mcp', { method: 'POST', headers: requestHeaders, body }));
  const data = await response.text();
  const line = data.split('\n').find((l) => l.startsWith('data:') && l.length > 6);
  const message = JSON.parse(line ? line.slice(5) : data);
  if (!message.result) throw new Error(`HTTP ${response.status}: ${data.slice(0, 300)}`);
  return message.result.content[0].text;
}

// Each call in a task of its own, as a runtime hands each request to its handler: run as one long
// chain of promises, the calls would share one task, and what a task keeps alive to its end (the
// targets of WeakRefs read in it) would outlive each call and be promoted to the old generation.
const nextTask = () => new Promise((resolve) => setImmediate(resolve));

async function calls(serve, n) {
  for (let i = 0; i < n; i++) {
    await call(serve);
    await nextTask();
  }
}

/** Microseconds of CPU (user + system) per call over `n` calls. */
async function cpuPerCall(serve, n) {
  const before = process.cpuUsage();
  await calls(serve, n);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

async function measureCpu() {
  const kinds = ONLY ? [ONLY] : ['toolwright', 'sdk'];
  const serves = Object.fromEntries(kinds.map((kind) => [kind, handlers[kind]()]));
  const texts = {};
  for (const kind of kinds) {
    texts[kind] = await call(serves[kind]);
    await calls(serves[kind], WARM);
  }
  if (!ONLY && texts.toolwright !== texts.sdk) throw new Error(`the handlers answer differently:\n${texts.toolwright}\n${texts.sdk}`);
  const per = Object.fromEntries(kinds.map((kind) => [kind, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of round % 2 ? [...kinds].reverse() : kinds) per[kind].push(await cpuPerCall(serves[kind], CALLS));
  }
  console.log(`${ERA}, in process on node ${process.version}: CPU µs per call (${CALLS} calls after ${WARM} to warm up, ${ROUNDS} rounds)`);
  for (const kind of kinds) console.log(`  ${kind.padEnd(10)} ${per[kind].map((us) => us.toFixed(0)).join(' / ')}`);
  if (!ONLY) {
    const ratios = per.sdk.map((sdk, i) => (sdk / per.toolwright[i]).toFixed(3));
    console.log(`  as efficient as the SDK (sdk / toolwright): ${ratios.join(' / ')}`);
  }
}

/** Under callgrind: warm up, then count only the measured calls. */
async function counted() {
  const serve = handlers[ONLY]();
  await call(serve);
  await calls(serve, WARM);
  execFileSync('callgrind_control', ['-i', 'on', String(process.pid)], { stdio: 'ignore' });
  await calls(serve, CALLS);
  execFileSync('callgrind_control', ['-i', 'off', String(process.pid)], { stdio: 'ignore' });
}

function instructionsPerCall(kind) {
  const out = join(tmpdir(), `inprocess-${kind}-${process.pid}.callgrind`);
  const run = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${out}`,
      process.execPath,
      '--single-threaded',
      __filename,
      '--counting',
      '--only',
      kind,
      '--calls',
      String(CALLS),
      '--warm',
      String(WARM),
      '--era',
      ERA,
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`callgrind run of ${kind} failed:\n${run.stderr.slice(-2000)}`);
  const totals = /^totals: (\d+)/m.exec(readFileSync(out, 'utf8'));
  if (process.env.CG_KEEP) console.log(`  (${kind}'s profile: ${out})`);
  else rmSync(out, { force: true });
  return Number(totals[1]) / CALLS;
}

async function main() {
  if (COUNTING) return counted();
  if (!CALLGRIND) return measureCpu();
  const kinds = ONLY ? [ONLY] : ['toolwright', 'sdk'];
  const per = Object.fromEntries(kinds.map((kind) => [kind, instructionsPerCall(kind)]));
  console.log(`${ERA}, in process on node ${process.version}: instructions per call (callgrind, ${CALLS} calls after ${WARM} to warm up)`);
  for (const kind of kinds) console.log(`  ${kind.padEnd(10)} ${Math.round(per[kind])}`);
  if (!ONLY) console.log(`  as efficient as the SDK (sdk / toolwright): ${(per.sdk / per.toolwright).toFixed(3)}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
