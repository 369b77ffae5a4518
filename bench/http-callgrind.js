#!/usr/bin/env node
'use strict';
// Instructions per tools/call of one Streamable HTTP server of bench/http-servers.js, counted by
// valgrind's callgrind: the load-independent counterpart of http-load.js's CPU per call (all of
// the server's threads, from after the warm-up). The clients are http-load.js's lean sessions
// with its mix of calls (every tenth a count_to with three progress notifications, then
// get_weather and calculate in turn); each session's initialize and DELETE are counted with its
// calls, as http-load.js's CPU per call counts them.
//   node bench/http-callgrind.js <clients> <calls per client> <stateful|stateless|modern> <raw|raw-v2|toolwright> [--root <checkout>]
// modern: 2026-07-28 requests (no handshake) to the stateless servers, as http-load.js's modern mode; raw v1 cannot serve them.
// --root <checkout> serves "toolwright" from another checkout's build (TOOLWRIGHT_ROOT, see
// bench/http-servers.js). WARM=<calls per client> (default: 3,000 calls in all);
// CG_OUT=<file> keeps callgrind's profile (callgrind_annotate <file>). Needs valgrind.
// JIT and GC timing still move a count by a few per cent from one sitting to the next: compare
// servers measured side by side.

const { fork, execFileSync } = require('node:child_process');
const path = require('node:path');
const { LeanSession } = require('./leanHttpClient');

const [clientsArg, callsArg, mode, kind] = process.argv.slice(2);
const rootArg = process.argv.indexOf('--root');
const ROOT = rootArg >= 0 ? path.resolve(process.argv[rootArg + 1]) : undefined;
if (!['stateful', 'stateless', 'modern'].includes(mode) || !['raw', 'raw-v2', 'toolwright'].includes(kind) || (mode === 'modern' && kind === 'raw')) {
  throw new Error('usage: node bench/http-callgrind.js <clients> <calls per client> <stateful|stateless|modern> <raw|raw-v2|toolwright> [--root <checkout>] (modern: raw-v2 or toolwright)');
}
const CLIENTS = Number(clientsArg);
const CALLS = Number(callsArg);
// Fewer warm-up calls leave TurboFan compiling inside the counted window (its passes then lead callgrind's profile, and two runs of one server differ by 20%).
const WARM = Number(process.env.WARM ?? Math.ceil(3000 / CLIENTS));

const out = `--callgrind-out-file=${process.env.CG_OUT ?? '/dev/null'}`;
const child = fork(path.join(__dirname, 'http-servers.js'), [kind, mode === 'stateful' ? 'stateful' : 'stateless'], {
  execPath: 'valgrind',
  execArgv: ['--tool=callgrind', '--instr-atstart=no', out, process.execPath, '--expose-gc'],
  env: ROOT ? { ...process.env, TOOLWRIGHT_ROOT: ROOT } : process.env,
  stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
});
let stderr = '';
child.stderr.on('data', (d) => (stderr += d));

let resets = 0;
/**
 * Under valgrind on a busy machine a server can stall past its 5 s keep-alive timeout and close
 * an idle socket just as the next request goes out (ECONNRESET before it reads it): that request
 * is sent again on a new socket, and the count of such resends is reported.
 */
async function again(send) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (error.code !== 'ECONNRESET' || attempt === 3) throw error;
      resets++;
    }
  }
}

async function client(url, c, calls) {
  const session = new LeanSession(url, `cg-${c}`, mode === 'modern' ? 'modern' : 'legacy');
  await again(() => session.open());
  for (let i = 0; i < calls; i++) {
    const [name, args] = i % 10 === 0 ? ['count_to', { n: 3, tag: `c${c}-${i}` }] : i % 2 === 0 ? ['get_weather', { location: 'Tokyo' }] : ['calculate', { operation: 'add', a: i, b: 0.5 }];
    const { result } = await again(() => session.request('tools/call', { name, arguments: args, ...(name === 'count_to' && { _meta: { progressToken: `c${c}-${i}` } }) }));
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result)}`);
  }
  await again(() => session.close());
}

const load = (url, calls) => Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(url, c, calls)));
const instrumentation = (state) => execFileSync('callgrind_control', ['-i', state, String(child.pid)], { stdio: 'ignore' });

(async () => {
  const { url } = await new Promise((resolve) => child.once('message', resolve));
  await load(url, WARM);
  instrumentation('on');
  await load(url, CALLS);
  instrumentation('off');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
  const collected = /Collected : (\d+)/.exec(stderr);
  if (!collected) throw new Error(`no count from callgrind:\n${stderr.slice(-2000)}`);
  const server = kind === 'toolwright' && ROOT ? `toolwright@${ROOT}` : kind;
  console.log(JSON.stringify({ mode, server, calls: CLIENTS * CALLS, resets, instructionsPerCall: Math.round(Number(collected[1]) / (CLIENTS * CALLS)) }));
})().catch((error) => {
  console.error(error);
  child.kill('SIGKILL');
  process.exit(1);
});
