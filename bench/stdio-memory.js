#!/usr/bin/env node
// The memory of stdio servers side by side, in the same run: the live heap after a forced full
// collection (just after the first answer, and after load), RSS, and the peak RSS (VmHWM) the load
// left. The live heap is what peak RSS follows (V8 lets the old generation grow to a multiple of
// what survived the last full collection), and unlike a peak it barely moves with the machine's load.
//   node bench/stdio-memory.js [--era legacy|modern] [--rounds 3] [--calls 3000] [--node <binary>] [-- <server script> ...]
// Without server commands it compares raw v2 (bench/raw-server-v2.js) with the weather example.
// Each server runs as `node --expose-gc -r bench/gc-probe.js <script>`; the preload answers SIGUSR2.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { serverArgs, median } = require('./startBench');

const ROOT = path.resolve(__dirname, '..');
const { flag, node, scripts: commands } = serverArgs();
const era = flag('era', 'modern');
const rounds = Number(flag('rounds', 3));
const calls = Number(flag('calls', 3000));
const SCENARIOS = [
  ['get_weather', 1],
  ['get_weather', 32],
  ['search_notes', 1],
  ['search_notes', 32],
];
const ARGS = { get_weather: { location: 'Tokyo' }, search_notes: { query: 'tokyo forecast', filters: { tags: ['weather'], minScore: 0.5 }, limit: 10 } };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'stdio-memory', version: '1' },
};

function start(script) {
  const child = spawn(node, ['--expose-gc', '-r', path.join(__dirname, 'gc-probe.js'), path.resolve(ROOT, script)], { stdio: ['pipe', 'pipe', 'pipe'], cwd: ROOT });
  const waiting = new Map();
  const probes = [];
  let nextId = 0;
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
    for (let i; (i = out.indexOf('\n')) >= 0;) {
      const line = out.slice(0, i);
      out = out.slice(i + 1);
      if (line[0] !== '{') continue;
      const message = JSON.parse(line);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  child.stderr.on('data', (d) => {
    err += d;
    for (let i; (i = err.indexOf('\n')) >= 0;) {
      const line = err.slice(0, i);
      err = err.slice(i + 1);
      if (line.startsWith('gc-probe ')) probes.shift()?.(JSON.parse(line.slice('gc-probe '.length)));
    }
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = ++nextId;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: era === 'modern' ? { ...params, _meta: MODERN_META } : params })}\n`);
    });
  const probe = () =>
    new Promise((resolve) => {
      probes.push(resolve);
      child.kill('SIGUSR2');
    });
  const status = () => {
    const text = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(text)[1]);
    return { hwmKb: kb('VmHWM'), rssKb: kb('VmRSS') };
  };
  return { child, request, probe, status, script };
}

async function open(server) {
  const answer =
    era === 'legacy'
      ? await server.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stdio-memory', version: '1' } })
      : await server.request('server/discover', {});
  if (answer.error) throw new Error(`${server.script}: ${JSON.stringify(answer.error)}`);
  if (era === 'legacy') server.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
}

async function load(server) {
  for (const [tool, concurrency] of SCENARIOS) {
    let left = calls;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) {
          const answer = await server.request('tools/call', { name: tool, arguments: ARGS[tool] });
          if (answer.error || answer.result.isError) throw new Error(`${server.script}: ${JSON.stringify(answer)}`);
        }
      }),
    );
  }
}

const MB = (bytes) => bytes / 1048576;
(async () => {
  const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const results = commands.map(() => []);
  for (let round = 0; round < rounds; round++) {
    // Rotate which server goes first; they run one after the other, so each has the machine to itself.
    for (let k = 0; k < commands.length; k++) {
      const i = (round + k) % commands.length;
      const server = start(commands[i]);
      await open(server);
      const afterStart = await server.probe();
      const started = server.status();
      await load(server);
      const loaded = server.status();
      const afterLoad = await server.probe();
      server.child.stdin.end();
      await new Promise((resolve) => server.child.on('exit', resolve));
      results[i].push({
        liveAfterStart: MB(afterStart.heapUsed),
        rssAfterStart: started.rssKb / 1024,
        liveAfterLoad: MB(afterLoad.heapUsed),
        peakRss: loaded.hwmKb / 1024,
      });
    }
  }
  const keys = ['liveAfterStart', 'rssAfterStart', 'liveAfterLoad', 'peakRss'];
  console.log(`era=${era} rounds=${rounds} calls=${calls} per scenario (${SCENARIOS.map(([t, c]) => `${t}@${c}`).join(', ')}), node ${nodeVersion}; MB, medians`);
  console.log(['server'.padEnd(36), ...keys.map((k) => k.padStart(15))].join(''));
  commands.forEach((c, i) =>
    console.log(
      [
        c.padEnd(36),
        ...keys.map((k) =>
          median(results[i].map((r) => r[k]))
            .toFixed(2)
            .padStart(15),
        ),
      ].join(''),
    ),
  );
  for (let i = 1; i < commands.length; i++) {
    const ratios = keys.map((k) => median(results[i].map((r, j) => r[k] / results[0][j][k])));
    console.log([`${commands[i]} / ${commands[0]}`.slice(0, 35).padEnd(36), ...ratios.map((x) => `${x.toFixed(3)}x`.padStart(15))].join(''));
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
