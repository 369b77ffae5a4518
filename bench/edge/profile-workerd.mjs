#!/usr/bin/env node
// A CPU profile of each bench/edge handler inside workerd, taken through workerd's inspector over a
// burst of calls once the isolate is warm: where a Worker's CPU per call goes, which node's
// profiler cannot show (workerd's streams, its Request/Response and its isolate's heap are not
// node's). Needs `npm run build`; bundles the Workers as bench/edge/run.mjs does.
//   node bench/edge/profile-workerd.mjs [--calls 3000] [--warm 1000] [--era 2026-07-28|2025-11-25]
//     [--only toolwright|sdk | --worker label=path/to/worker.mjs ...] [--top 25] [--interval 100 (µs)] [--heap | --callgrind]
// Prints each handler's self time by function (top N) and by the bundle's source file, and writes
// .bench/edge/<kind>-<era>.cpuprofile (open it in Chrome's DevTools, Performance tab). With the
// inspector attached a call costs workerd ~1.6x the CPU (errors capture more, for one): read the
// shares, not the totals.
//   --heap       where the objects that outlived a scavenge were allocated, instead of the CPU
//   --callgrind  instructions per call inside workerd (valgrind, V8 --single-threaded so its GC and
//                compilers count on the one thread), no inspector: the steady figure on a busy machine.
//                The count still moves by several % from run to run (how many scavenges of ~16 MB
//                fall in the window): use --calls 2000 or more (~3 min per handler).
import { execFileSync, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { basename, join, relative, resolve } from 'node:path';
import { buildWorkers, WORKERS_DIR } from './build-workers.mjs';
import { postCall } from './postCall.mjs';
import { cpuMs, freePort, writeWorkerdConfig } from './workerd.mjs';

const require = createRequire(import.meta.url);
const WebSocket = require('ws');
const WORKERD = require('workerd').default;

const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : fallback;
};
const CALLS = Number(arg('calls', 3000));
const WARM = Number(arg('warm', 1000));
const ERA = arg('era', '2026-07-28');
const TOP = Number(arg('top', 25));
const INTERVAL = Number(arg('interval', 100));
const CONCURRENCY = 8;
// --heap: V8's sampling heap profiler, leaving out the objects a scavenge freed: what each call
// leaves to the old generation (promoted, whether or not a major collection freed it since).
const HEAP = argv.includes('--heap');
const CALLGRIND = argv.includes('--callgrind');
/** `--worker label=path/to/worker.mjs` (repeatable): profile these Worker files instead of building the bench's. */
const GIVEN = argv
  .flatMap((value, i) => (argv[i - 1] === '--worker' ? [value] : []))
  .map((spec) => {
    const at = spec.indexOf('=');
    return at > 0 ? [spec.slice(0, at), resolve(spec.slice(at + 1))] : [basename(spec, '.mjs'), resolve(spec)];
  });
const KINDS = GIVEN.length > 0 ? GIVEN.map(([label]) => label) : arg('only', undefined) ? [arg('only')] : ['toolwright', 'sdk'];
/** Each kind's Worker file, relative to WORKERS_DIR (where workerd's config is written). */
const moduleOf = (kind) => relative(WORKERS_DIR, GIVEN.find(([label]) => label === kind)?.[1] ?? join(WORKERS_DIR, `${kind}.mjs`));

async function burst(url, n) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let left = n;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) {
        for (let attempt = 0; ; attempt++) {
          try {
            await postCall(url, ERA, agent);
            break;
          } catch (error) {
            if (attempt > 5 || error.code !== 'ECONNRESET') throw error;
          }
        }
      }
    }),
  );
  agent.destroy();
}

async function startWorkerd(kind, callgrindOut) {
  const [port, inspector] = [await freePort(), await freePort()];
  const config = writeWorkerdConfig(`${kind}-profile-${port}`, port, moduleOf(kind), callgrindOut ? ['--single-threaded'] : []);
  const [command, args] = callgrindOut
    ? ['valgrind', ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${callgrindOut}`, WORKERD, 'serve', config]]
    : [WORKERD, ['serve', config, `--inspector-addr=127.0.0.1:${inspector}`]];
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', callgrindOut ? 'ignore' : 'inherit'] });
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; ; i++) {
    try {
      await postCall(url, ERA, new http.Agent({ keepAlive: false }));
      break;
    } catch (error) {
      if (i > 3000 || child.exitCode !== null) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  return { child, url, inspector };
}

/** A Chrome DevTools Protocol session with the Worker's isolate. */
async function devtools(inspectorPort) {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json();
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let id = 0;
  const waiting = new Map();
  socket.on('message', (data) => {
    const message = JSON.parse(data);
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.error) pending.reject(new Error(JSON.stringify(message.error)));
    else pending.resolve(message.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        waiting.set(++id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

function summarize(kind, profile, cpu) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  const byFile = new Map();
  for (const [nodeId, us] of selfUs) {
    const { callFrame } = byId.get(nodeId);
    const name = `${callFrame.functionName || '(anonymous)'} ${callFrame.url ? `${callFrame.url.split('/').pop()}:${callFrame.lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  for (const [nodeId, us] of selfUs) {
    const { callFrame } = byId.get(nodeId);
    const file = callFrame.url ? 'worker' : callFrame.functionName;
    byFile.set(file, (byFile.get(file) ?? 0) + us);
  }
  const line = ([name, us]) => `  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / CALLS).toFixed(1).padStart(6)} µs/call  ${name}`;
  console.log(`\n${kind} (${ERA}): ${(total / CALLS).toFixed(1)} µs sampled per call over ${CALLS} calls; workerd's CPU ${((cpu * 1000) / CALLS).toFixed(1)} µs per call`);
  console.log(' by kind:');
  for (const entry of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(line(entry));
  console.log(` top ${TOP} functions (self):`);
  for (const entry of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(line(entry));
}

function summarizeHeap(kind, profile) {
  const bySite = new Map();
  let total = 0;
  const walk = (node, stack) => {
    const frame = node.callFrame;
    const here = frame.functionName ? `${frame.functionName}${frame.url ? `:${frame.lineNumber + 1}` : ''}` : '';
    const path = here ? [...stack, here] : stack;
    if (node.selfSize) {
      const site = path.slice(-3).join(' < ') || '(root)';
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) walk(child, path);
  };
  walk(profile.head, []);
  console.log(`\n${kind} (${ERA}): ${(total / CALLS / 1024).toFixed(1)} kB per call still alive after the burst (sampled), by allocation site:`);
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${(bytes / CALLS).toFixed(0).padStart(6)} B/call  ${site}`);
}

/** Instructions per call of `kind` inside workerd under callgrind, counting only the measured burst. */
async function instructionsPerCall(kind) {
  const out = join(WORKERS_DIR, `${kind}-${process.pid}.callgrind`);
  const server = await startWorkerd(kind, out);
  try {
    await burst(server.url, WARM);
    execFileSync('callgrind_control', ['-i', 'on', String(server.child.pid)], { stdio: 'ignore' });
    await burst(server.url, CALLS);
    execFileSync('callgrind_control', ['-i', 'off', String(server.child.pid)], { stdio: 'ignore' });
  } finally {
    await new Promise((resolve) => {
      server.child.once('exit', resolve);
      server.child.kill('SIGTERM');
    });
  }
  const annotated = execFileSync('callgrind_annotate', [out], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (!process.env.CG_KEEP) rmSync(out, { force: true });
  return Number(/([\d,]+) \S* *PROGRAM TOTALS/.exec(annotated)[1].replace(/,/g, '')) / CALLS;
}

if (GIVEN.length === 0) await buildWorkers(KINDS);
if (CALLGRIND) {
  const per = {};
  for (const kind of KINDS) per[kind] = await instructionsPerCall(kind);
  console.log(`${ERA}, workerd: instructions per call (callgrind, ${CALLS} calls after ${WARM} to warm up, ${CONCURRENCY} callers)`);
  for (const kind of KINDS) console.log(`  ${kind.padEnd(10)} ${Math.round(per[kind])}`);
  if (per.toolwright && per.sdk) console.log(`  as efficient as the SDK (sdk / toolwright): ${(per.sdk / per.toolwright).toFixed(3)}`);
  process.exit(0);
}
for (const kind of KINDS) {
  const server = await startWorkerd(kind);
  try {
    await burst(server.url, WARM);
    const session = await devtools(server.inspector);
    if (HEAP) {
      await session.send('HeapProfiler.enable');
      await session.send('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false });
      await burst(server.url, CALLS);
      const { profile } = await session.send('HeapProfiler.getSamplingProfile');
      await session.send('HeapProfiler.stopSampling');
      session.close();
      summarizeHeap(kind, profile);
      continue;
    }
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: INTERVAL });
    await session.send('Profiler.start');
    const cpuBefore = cpuMs(server.child.pid);
    await burst(server.url, CALLS);
    const cpu = cpuMs(server.child.pid) - cpuBefore;
    const { profile } = await session.send('Profiler.stop');
    session.close();
    const file = join(WORKERS_DIR, `${kind}-${ERA}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    summarize(kind, profile, cpu);
    console.log(` written: ${file}`);
  } finally {
    server.child.kill('SIGKILL');
  }
}
