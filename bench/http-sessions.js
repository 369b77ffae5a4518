#!/usr/bin/env node
'use strict';
// Opens and abandons N sessions (initialize, then never again) against one stateful
// Toolwright HTTP server in this process, and reports the heap: before, with every session
// live (no limit), and after they expire. Run with --expose-gc for stable numbers:
//   node --expose-gc bench/http-sessions.js [N=10000]
// Needs `npm run build` first.

require('reflect-metadata');
const { createApp } = require('@toolwright/server');
const { WeatherTools } = require('../examples/weather/dist/weather.tools.js');
const { NotesTools } = require('../examples/weather/dist/notes.tools.js');

const N = Number(process.argv[2] ?? 10000);
const IDLE_MS = Number(process.env.IDLE_MS ?? 45000);
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
});
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function heap() {
  for (let i = 0; i < 4; i++) {
    global.gc?.();
    await sleep(25);
  }
  return process.memoryUsage().heapUsed;
}

async function main() {
  if (!global.gc) console.warn('warning: run with --expose-gc for stable heap numbers');
  const app = await createApp({ name: 'sessions-bench', version: '1.0.0', tools: [WeatherTools, NotesTools] });
  const listener = await app.listen({
    transport: 'http',
    port: 0,
    requestLogLevel: 'silent',
    exitOnSignal: false,
    // One client opens them all: the per-caller share and initialize rate are lifted.
    sessions: { idleTimeoutMs: IDLE_MS, maxSessions: N + 1, maxSessionsPerPrincipal: N + 1, initializeRate: false },
  });
  const open = () =>
    fetch(listener.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: INIT }).then(async (r) => {
      if (r.status !== 200) throw new Error(`initialize answered ${r.status}`);
      await r.text();
    });
  for (let i = 0; i < 200; i++) await open(); // warm up code paths
  while (listener.sessionCount > 0) await sleep(200);
  const baseline = await heap();

  const started = performance.now();
  for (let done = 0; done < N; done += 100) await Promise.all(Array.from({ length: Math.min(100, N - done) }, open));
  const elapsed = performance.now() - started;
  const live = await heap();
  const liveCount = listener.sessionCount;

  while (listener.sessionCount > 0) await sleep(200);
  const after = await heap();
  await listener.close();

  const rows = [
    ['sessions opened', String(N)],
    ['time to open', `${(elapsed / 1000).toFixed(1)} s (${((elapsed / N) * 1000).toFixed(0)} us each, 100 in parallel)`],
    ['heap baseline', mb(baseline)],
    [`heap with ${liveCount} live sessions`, `${mb(live)} (+${mb(live - baseline)}, ${((live - baseline) / liveCount / 1024).toFixed(1)} KB per session)`],
    ['heap after idle expiry', `${mb(after)} (${after - baseline >= 0 ? '+' : ''}${mb(after - baseline)} vs baseline)`],
  ];
  for (const [k, v] of rows) console.log(`${k.padEnd(34)} ${v}`);
  const leaked = after - baseline;
  if (leaked > 10 * 1024 * 1024) {
    console.error(`FAIL: heap stayed ${mb(leaked)} above baseline after all sessions closed`);
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
