#!/usr/bin/env node
// A closed loop of tools/call from a lean JSON-lines client against one stdio server; prints its
// initialize time, CPU until initialized, server CPU per call (/proc) and calls/s.
//   node bench/stdio-drive.js <calls> <concurrency> [get_weather|search_notes] [legacy|modern] -- node examples/weather/dist/server.js
// WARM=<n> warm-up calls (default 3000). Instructions per call, deterministic:
//   WARM=0 node bench/stdio-drive.js 4000 1 get_weather -- valgrind --tool=callgrind --callgrind-out-file=/dev/null node <server>
// minus the same with 1000 calls, divided by 3000 (valgrind prints 'Collected : <instructions>' on stderr).
'use strict';
// usage: node drive.js <calls> <concurrency> <tool> [era] -- cmd args...
// Closed-loop lean JSON-lines client; prints server CPU ms per call (utime+stime from /proc).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
const [callsS, concS, tool = 'get_weather', era = 'legacy'] = argv.slice(0, sep);
const [cmd, ...args] = argv.slice(sep + 1);
const calls = +callsS,
  conc = +concS;
const ARGS = { get_weather: { location: 'Tokyo' }, search_notes: { query: 'tokyo forecast', filters: { tags: ['weather'], minScore: 0.5 }, limit: 10 } };
const child = spawn(cmd === 'node' ? process.execPath : cmd, args, { stdio: ['pipe', 'pipe', 'inherit'], cwd: process.env.DRIVE_CWD || process.cwd() });
const tick = 100; // CLK_TCK
const cpu = () => {
  const f = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (+f[11] + +f[12]) * (1000 / tick);
};
let buf = '',
  id = 0;
const waiting = new Map();
child.stdout.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    const m = JSON.parse(line);
    const w = waiting.get(m.id);
    if (w) {
      waiting.delete(m.id);
      w(m);
    }
  }
});
const modernMeta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'd', version: '1' } };
function req(method, params) {
  const i = ++id;
  if (era === 'modern') params = { ...params, _meta: modernMeta };
  return new Promise((r) => {
    waiting.set(i, r);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: i, method, params }) + '\n');
  });
}
(async () => {
  const t0 = process.hrtime.bigint();
  if (era === 'legacy') {
    const r = await req('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'd', version: '1' } });
    if (r.error) throw new Error(JSON.stringify(r));
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  } else {
    const r = await req('server/discover', {});
    if (r.error) throw new Error(JSON.stringify(r));
  }
  const tInit = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpuInit = cpu();
  const warm = +(process.env.WARM ?? 3000);
  const loop = async (n) => {
    let left = n;
    await Promise.all(
      Array.from({ length: conc }, async () => {
        while (left-- > 0) {
          const r = await req('tools/call', { name: tool, arguments: ARGS[tool] });
          if (r.error || r.result.isError) throw new Error(JSON.stringify(r));
        }
      }),
    );
  };
  await loop(warm);
  const c0 = cpu();
  const w0 = process.hrtime.bigint();
  await loop(calls);
  const c1 = cpu();
  const w1 = Number(process.hrtime.bigint() - w0) / 1e6;
  console.log(JSON.stringify({ initMs: +tInit.toFixed(1), cpuInitMs: cpuInit, cpuUsPerCall: +(((c1 - c0) * 1000) / calls).toFixed(1), callsPerS: Math.round((calls / w1) * 1000) }));
  child.stdin.end();
})().catch((e) => {
  console.error(e);
  child.kill();
  process.exit(1);
});
