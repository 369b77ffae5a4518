#!/usr/bin/env node
// Does a stdio server keep something per request? Drives bench/soak-server.js over stdio with the
// soak's frames (bench/soakMix.js) as fast as it answers, and every CHECKPOINT requests asks it
// for its heap used after a full GC (bench/gc-probe.js, SIGUSR2). A heap that keeps rising by
// checkpoint grows with requests, not with what is live: the soak's RSS slope takes minutes to
// show it, this takes seconds. Each round of a 2026-07-28 call that asks the client (input_required)
// is answered with its retry, as the soak does.
//
//   node bench/heap-trend.js [modern|legacy] [requests, default 200000] [checkpoint, default 50000]
//   ONLY=<kind> node bench/heap-trend.js ...   one kind of frame: an index into GOOD (0 tools/list,
//                                             4 a call that samples, ...) or 'hostile'
// Needs a build (soak-server.js loads the built packages). Output: one line per checkpoint.
'use strict';
const { spawn } = require('node:child_process');
const { join } = require('node:path');
const { readLines } = require('./readLines');
const { VERSION, GOOD, HOSTILE, inEra, answerTo, retryOf } = require('./soakMix');

const modern = process.argv[2] !== 'legacy';
const TOTAL = Number(process.argv[3] ?? 200_000);
const CHECKPOINT = Number(process.argv[4] ?? 50_000);
const ONLY = process.env.ONLY;
/** Requests waiting for their answer at most before the driver waits: the server's pace, not a backlog, is measured. */
const WINDOW = 500;

const child = spawn(process.execPath, ['--expose-gc', '-r', join(__dirname, 'gc-probe.js'), join(__dirname, 'soak-server.js')], { stdio: ['pipe', 'pipe', 'pipe'] });
const waiting = new Map();
let seq = 0;
let onProbe;
readLines(child.stderr, (line) => {
  if (line.startsWith('gc-probe ') && onProbe) onProbe(JSON.parse(line.slice('gc-probe '.length)));
});
readLines(child.stdout, (line) => {
  const m = JSON.parse(line);
  if ('method' in m && 'id' in m) {
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: m.id, result: answerTo(m.method) })}\n`);
    return;
  }
  const request = waiting.get(m.id);
  waiting.delete(m.id);
  if (request && m.result?.resultType === 'input_required') send(retryOf(request, m.result, `r${++seq}`));
});
const send = (request) => {
  waiting.set(request.id, request);
  child.stdin.write(`${JSON.stringify(request)}\n`);
};
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const MiB = (n) => (n / 1048576).toFixed(2);

async function main() {
  if (!modern) {
    send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: VERSION, capabilities: { sampling: {}, elicitation: {} }, clientInfo: { name: 'heap-trend', version: '1' } } });
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  }
  console.log(`${modern ? '2026-07-28' : '2025-11-25'}, ${ONLY === undefined ? 'the soak mix' : `only ${ONLY === 'hostile' ? 'hostile frames' : JSON.stringify(GOOD[Number(ONLY)])}`}`);
  console.log('requests\theap after GC, MiB\told space\tlarge objects\tRSS');
  for (let sent = 0, next = CHECKPOINT; sent < TOTAL;) {
    for (let i = 0; i < 200; i++, sent++) {
      if (ONLY === 'hostile' || (ONLY === undefined && Math.random() < 0.2)) child.stdin.write(`${pick(HOSTILE)(`h${++seq}`).text}\n`);
      else send(inEra(modern, { jsonrpc: '2.0', id: `s${++seq}`, ...(ONLY === undefined ? pick(GOOD) : GOOD[Number(ONLY)]) }));
    }
    while (waiting.size > WINDOW) await sleep(2);
    if (sent < next) continue;
    next += CHECKPOINT;
    while (waiting.size > 0) await sleep(2);
    const probe = new Promise((resolve) => (onProbe = resolve));
    child.kill('SIGUSR2');
    const m = await probe;
    console.log(`${sent}\t${MiB(m.heapUsed)}\t${MiB(m.spaces.old_space)}\t${MiB(m.spaces.large_object_space)}\t${MiB(m.rss)}`);
  }
  child.stdin.end();
}

main().catch((error) => {
  console.error(error);
  child.kill();
  process.exit(1);
});
