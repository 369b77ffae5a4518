#!/usr/bin/env node
// Cold start on workerd counted in instructions (valgrind's callgrind, all of workerd's threads): from
// `workerd serve` to the first answered tools/call (2026-07-28), for each Worker, alternating. On a
// shared machine CPU time to the first answer spreads by 10% between runs; this count moves by 1 to
// 3 % (it is not free of the load: keep comparisons within one run, of two runs or more). About a minute per start.
//   node bench/edge/cold-callgrind.mjs [--runs 2] [--worker label=path/to/worker.mjs ...] [--out dir]
// Without --worker: the bench's Workers (build-workers.mjs: toolwright, sdk and sdkZod), and the
// ratios sdk / toolwright and sdkZod / toolwright (above 1: Toolwright starts with fewer instructions). --worker compares
// Worker bundles of your own (two builds of Toolwright, say). --out keeps each profile for
// callgrind_annotate (where the instructions go: V8's scanner and parser, the interpreter, GC).
// Needs `npm run build` and valgrind.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { basename, join, relative, resolve } from 'node:path';
import { buildWorkers, WORKERS_DIR } from './build-workers.mjs';
import requests from './requests.js';
import { freePort, writeWorkerdConfig } from './workerd.mjs';

const require = createRequire(import.meta.url);
const WORKERD = require('workerd').default;
const argv = process.argv.slice(2);
const option = (name) => argv.flatMap((a, i) => (a === `--${name}` ? [argv[i + 1]] : []));
const RUNS = Number(option('runs')[0] ?? 2);
const OUT = option('out')[0];
const { body, headers } = requests.ERAS['2026-07-28'];

function call(port) {
  return new Promise((done, fail) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent: false,
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => (text.includes('"result"') ? done() : fail(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`))));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

/** Instructions workerd ran from its start to the first answer of `file` (it exits right after). */
async function count(label, file) {
  const port = await freePort();
  const config = writeWorkerdConfig(`callgrind-${port}`, port, relative(WORKERS_DIR, resolve(file)));
  const out = OUT ? join(OUT, `${label}-${port}.callgrind`) : '/dev/null';
  const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, WORKERD, 'serve', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`workerd (${label}) exited:\n${stderr.slice(-2000)}`);
    try {
      await call(port);
      break;
    } catch (error) {
      if (error.code !== 'ECONNREFUSED' && error.code !== 'ECONNRESET') throw error;
      await new Promise((done) => setTimeout(done, 20));
    }
  }
  await new Promise((done) => {
    child.once('exit', done);
    child.kill('SIGTERM');
  });
  rmSync(config, { force: true });
  const collected = /Collected : (\d+)/.exec(stderr);
  if (!collected) throw new Error(`no count from callgrind for ${label}:\n${stderr.slice(-2000)}`);
  return Number(collected[1]);
}

const given = option('worker').map((spec) => {
  const at = spec.indexOf('=');
  return at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [basename(spec, '.mjs'), spec];
});
const workers = given.length > 0 ? given : Object.entries(await buildWorkers());
const counts = new Map(workers.map(([label]) => [label, []]));
for (let run = 0; run < RUNS; run++) {
  // Alternating which goes first.
  for (const [label, file] of run % 2 ? [...workers].reverse() : workers) {
    const n = await count(label, file);
    counts.get(label).push(n);
    console.log(`${label.padEnd(14)} ${(n / 1e6).toFixed(1).padStart(8)} M instructions`);
  }
}
const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
console.log(`\nworkerd cold start to the first answered tools/call, mean of ${RUNS} (callgrind, all threads):`);
for (const [label, values] of counts) console.log(`${label.padEnd(14)} ${(mean(values) / 1e6).toFixed(1).padStart(8)} M`);
for (const kind of ['sdk', 'sdkZod'])
  if (counts.has('toolwright') && counts.has(kind)) console.log(`ratio ${kind} / toolwright: ${(mean(counts.get(kind)) / mean(counts.get('toolwright'))).toFixed(3)}x`);
