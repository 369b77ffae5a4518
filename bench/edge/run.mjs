#!/usr/bin/env node
// `npm run bench:edge`: Toolwright's fetch handler against the SDK v2's own web-standard handler
// (createMcpHandler(...).fetch), same tools, same runtime, same run (bench/edge/handlers.js), the
// SDK written two ways: `sdk` (a low-level Server, arguments checked by hand) and `sdkZod` (an
// McpServer with zod schemas, as the SDK's docs teach):
//   1. throughput and CPU per call on workerd (the npm `workerd` binary, each Worker bundled by
//      build-workers.mjs), in both eras (2026-07-28; 2025-11-25 stateless), closed loop;
//   2. cold start, from spawning the runtime to the first answered tools/call, on workerd, Deno and Bun
//      (Deno and Bun on the installed packages, and on the Worker files).
// Results are ratios toolwright / each SDK handler (above 1: Toolwright is faster or starts sooner), with the
// absolute figures beside them (noise on a shared machine: read the ratios).
// Options: --seconds S (per slice, default 2), --rounds R (default 3), --spawns N (default 5),
// --concurrency C (default 16), --skip-throughput, --skip-cold.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWorkers, WORKERS_DIR } from './build-workers.mjs';
import { postCall } from './postCall.mjs';
import requests from './requests.js';
import { cpuMs, freePort, writeWorkerdConfig } from './workerd.mjs';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', '..', 'node_modules', '.bin');
const WORKERD = require('workerd').default;
const KINDS = ['toolwright', 'sdk', 'sdkZod'];
/** The SDK's handlers, each compared with Toolwright's. */
const SDK_KINDS = KINDS.slice(1);

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const SECONDS = arg('seconds', 2);
const ROUNDS = arg('rounds', 3);
const SPAWNS = arg('spawns', 5);
const CONCURRENCY = arg('concurrency', 16);
/** The calls, one tools/call per era (sent by postCall.mjs). */
const { ERAS } = requests;

// ---- the runtimes ----

const RUNTIMES = {
  workerd: (kind, port) => [WORKERD, ['serve', writeWorkerdConfig(`${kind}-${port}`, port, `${kind}.mjs`)]],
  Deno: (kind) => [join(BIN, 'deno'), ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-sys', join(here, 'serve.mjs'), kind]],
  Bun: (kind) => [join(BIN, 'bun'), [join(here, 'serve.mjs'), kind]],
  // The Worker files workerd runs (one module each, what build-workers.mjs bundled), on Deno and Bun.
  'Deno bundle': (kind) => [join(BIN, 'deno'), ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-sys', join(here, 'serve.mjs'), kind, 'bundle']],
  'Bun bundle': (kind) => [join(BIN, 'bun'), [join(here, 'serve.mjs'), kind, 'bundle']],
};

/** Spawns a runtime serving `kind`; resolves once a tools/call is answered, with the time that took. */
async function start(runtime, kind, era = '2026-07-28') {
  const port = await freePort();
  const [command, args] = RUNTIMES[runtime](kind, port);
  const url = `http://127.0.0.1:${port}/mcp`;
  const began = process.hrtime.bigint();
  const child = spawn(command, args, { env: { ...process.env, PORT: String(port), NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  // workerd's generated config goes with the process.
  child.once('exit', () => rmSync(join(WORKERS_DIR, `${kind}-${port}.capnp`), { force: true }));
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${runtime} (${kind}) exited: ${stderr}`);
    const agent = new http.Agent({ keepAlive: false });
    try {
      const text = await postCall(url, era, agent);
      const coldMs = Number(process.hrtime.bigint() - began) / 1e6;
      return { child, url, coldMs, coldCpuMs: cpuMs(child.pid), text };
    } catch (error) {
      if (error.code !== 'ECONNREFUSED' && error.code !== 'ECONNRESET') {
        child.kill();
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
}

function stop(child) {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}

/** CONCURRENCY callers in a closed loop for `seconds`: calls answered, and the server's CPU spent. */
async function slice(server, era, seconds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const cpuBefore = cpuMs(server.child.pid);
  const until = performance.now() + seconds * 1000;
  let calls = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await postCall(server.url, era, agent);
        calls++;
      }
    }),
  );
  const cpu = cpuMs(server.child.pid) - cpuBefore;
  agent.destroy();
  return { calls, ms: seconds * 1000, cpu };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const fmt = (value, digits = 0) => value.toFixed(digits);

async function throughput() {
  const servers = {};
  for (const kind of KINDS) servers[kind] = await start('workerd', kind);
  for (const kind of SDK_KINDS)
    if (servers.toolwright.text !== servers[kind].text) console.log(`note: the answers differ:\n  toolwright: ${servers.toolwright.text}\n  ${kind}: ${servers[kind].text}`);
  const rows = [];
  try {
    for (const era of Object.keys(ERAS)) {
      // Warm-up: the same number of calls on each (a time-based one gives the slower fewer calls to compile).
      for (const kind of KINDS) for (let i = 0; i < 300; i++) await postCall(servers[kind].url, era);
      const per = Object.fromEntries(KINDS.map((kind) => [kind, []]));
      for (let round = 0; round < ROUNDS; round++) {
        // A B C C B A, the first rotating from round to round: drift on the machine hits all alike.
        const order = KINDS.map((_, i) => KINDS[(i + round) % KINDS.length]);
        for (const kind of [...order, ...[...order].reverse()]) per[kind].push(await slice(servers[kind], era, SECONDS / 2));
      }
      const summary = Object.fromEntries(
        KINDS.map((kind) => {
          const calls = per[kind].reduce((sum, s) => sum + s.calls, 0);
          const ms = per[kind].reduce((sum, s) => sum + s.ms, 0);
          const cpu = per[kind].reduce((sum, s) => sum + s.cpu, 0);
          return [kind, { callsPerSecond: (calls / ms) * 1000, cpuMsPerCall: cpu / calls }];
        }),
      );
      rows.push({ era, ...summary });
    }
  } finally {
    for (const kind of KINDS) await stop(servers[kind].child);
  }
  console.log(`\nworkerd ${require('workerd').compatibilityDate}, stateless, ${CONCURRENCY} callers, ${ROUNDS} rounds of ${SECONDS}s per handler and era (tools/call get_weather)`);
  console.log('era         handler   toolwright calls/s   its calls/s   ratio   toolwright CPU ms/call   its CPU ms/call   ratio (its/toolwright)');
  for (const row of rows) {
    const { toolwright } = row;
    for (const kind of SDK_KINDS)
      console.log(
        `${row.era}  ${kind.padEnd(7)}  ${fmt(toolwright.callsPerSecond).padStart(18)}   ${fmt(row[kind].callsPerSecond).padStart(11)}   ${fmt(toolwright.callsPerSecond / row[kind].callsPerSecond, 2).padStart(5)}x` +
          `   ${fmt(toolwright.cpuMsPerCall, 3).padStart(22)}   ${fmt(row[kind].cpuMsPerCall, 3).padStart(15)}   ${fmt(row[kind].cpuMsPerCall / toolwright.cpuMsPerCall, 2).padStart(5)}x`,
      );
  }
  return rows;
}

async function coldStarts() {
  const rows = [];
  for (const runtime of Object.keys(RUNTIMES)) {
    const times = Object.fromEntries(KINDS.map((kind) => [kind, []]));
    const cpu = Object.fromEntries(KINDS.map((kind) => [kind, []]));
    for (let i = 0; i < SPAWNS; i++) {
      // The first rotates from spawn to spawn.
      for (const kind of KINDS.map((_, k) => KINDS[(k + i) % KINDS.length])) {
        const served = await start(runtime, kind);
        times[kind].push(served.coldMs);
        cpu[kind].push(served.coldCpuMs);
        await stop(served.child);
      }
    }
    rows.push({ runtime, ...Object.fromEntries(KINDS.map((kind) => [kind, { ms: median(times[kind]), cpuMs: median(cpu[kind]) }])) });
  }
  // Wall time waits for a core on a busy machine; the runtime's own CPU time (all its threads, /proc) is the steadier figure.
  console.log(`\ncold start: spawn to the first answered tools/call (2026-07-28), median of ${SPAWNS} spawns each; wall time, and the runtime's CPU time until then`);
  console.log('runtime       handler   toolwright ms   its ms   ratio (its/toolwright)   toolwright CPU ms   its CPU ms   ratio (its/toolwright)');
  for (const row of rows) {
    const { toolwright } = row;
    for (const kind of SDK_KINDS)
      console.log(
        `${row.runtime.padEnd(12)}  ${kind.padEnd(7)}  ${fmt(toolwright.ms).padStart(13)}   ${fmt(row[kind].ms).padStart(6)}   ${fmt(row[kind].ms / toolwright.ms, 2).padStart(21)}x` +
          `   ${fmt(toolwright.cpuMs).padStart(17)}   ${fmt(row[kind].cpuMs).padStart(10)}   ${fmt(row[kind].cpuMs / toolwright.cpuMs, 2).padStart(21)}x`,
      );
  }
  return rows;
}

await buildWorkers(KINDS);
const result = { date: new Date().toISOString() };
if (!process.argv.includes('--skip-throughput')) result.throughput = await throughput();
if (!process.argv.includes('--skip-cold')) result.coldStart = await coldStarts();
writeFileSync(join(WORKERS_DIR, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
