#!/usr/bin/env node
// Instructions per tools/call of one stdio server, counted by valgrind's callgrind: deterministic
// enough to compare two servers on a busy machine, where CPU time is not. Counting starts after
// the warm-up (`callgrind_control -i on`), so startup and the first compilations are left out.
//   node bench/stdio-callgrind.js <calls> <concurrency> [get_weather|search_notes] [legacy|modern] -- node examples/weather/dist/server.js
// WARM=<n> warm-up calls (default 3000); CG_OUT=<file> keeps callgrind's profile (callgrind_annotate <file>).
// Needs valgrind (callgrind_control). JIT and GC timing still move a count by a few percent from
// one sitting to the next: compare servers measured side by side.
'use strict';
const { spawn, execFileSync } = require('node:child_process');

const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
const [callsArg, concurrencyArg, tool = 'get_weather', era = 'modern'] = argv.slice(0, sep);
const [cmd, ...args] = argv.slice(sep + 1);
if (sep < 0 || !cmd) throw new Error('usage: node bench/stdio-callgrind.js <calls> <concurrency> [tool] [era] -- <server command>');
const calls = Number(callsArg);
const concurrency = Number(concurrencyArg);
const ARGS = { get_weather: { location: 'Tokyo' }, search_notes: { query: 'tokyo forecast', filters: { tags: ['weather'], minScore: 0.5 }, limit: 10 } };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'callgrind', version: '1' },
};

const out = process.env.CG_OUT ? `--callgrind-out-file=${process.env.CG_OUT}` : '--callgrind-out-file=/dev/null';
const child = spawn('valgrind', ['--tool=callgrind', '--instr-atstart=no', out, cmd === 'node' ? process.execPath : cmd, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
let stderr = '';
child.stderr.on('data', (d) => (stderr += d));
let buffer = '';
let nextId = 0;
const waiting = new Map();
child.stdout.on('data', (d) => {
  buffer += d;
  for (let i; (i = buffer.indexOf('\n')) >= 0;) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    if (line[0] !== '{') continue;
    const message = JSON.parse(line);
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  }
});

function request(method, params) {
  const id = ++nextId;
  const body = era === 'modern' ? { ...params, _meta: MODERN_META } : params;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: body })}\n`);
  });
}

async function loop(n) {
  let left = n;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) {
        const answer = await request('tools/call', { name: tool, arguments: ARGS[tool] });
        if (answer.error || answer.result.isError) throw new Error(JSON.stringify(answer));
      }
    }),
  );
}

const instrumentation = (state) => execFileSync('callgrind_control', ['-i', state, String(child.pid)], { stdio: 'ignore' });

(async () => {
  const opened =
    era === 'legacy' ? await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'callgrind', version: '1' } }) : await request('server/discover', {});
  if (opened.error) throw new Error(JSON.stringify(opened));
  if (era === 'legacy') child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  await loop(Number(process.env.WARM ?? 3000));
  instrumentation('on');
  await loop(calls);
  instrumentation('off');
  child.stdin.end();
  child.on('exit', () => {
    const collected = /Collected : (\d+)/.exec(stderr);
    if (!collected) throw new Error(`no count from callgrind:\n${stderr.slice(-2000)}`);
    console.log(JSON.stringify({ tool, concurrency, era, server: args.join(' '), instructionsPerCall: Math.round(Number(collected[1]) / calls) }));
  });
})().catch((error) => {
  console.error(error);
  child.kill();
  process.exit(1);
});
