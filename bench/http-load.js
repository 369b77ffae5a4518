#!/usr/bin/env node
'use strict';
// Load test over Streamable HTTP: CLIENTS concurrent clients x CALLS calls each, against the
// Toolwright server and the same tools written by hand on the SDK v1 and on the SDK v2
// (bench/http-servers.js), in the same run, rotating which server goes first, for each mode:
//   stateful   sessions (legacy era), all three servers
//   stateless  a server per request, no sessions (legacy era), all three servers
//   modern     2026-07-28 requests (stateless by nature); the v1 SDK cannot serve them
// Checks:
//   - zero failed calls
//   - zero cross-session leaks: every result and every progress notification carries the
//     caller's own unique tag
//   - every session closed afterwards (DELETE), and the server heap back near its baseline
// Reports throughput (calls/s), server CPU per call, and the Toolwright / hand-written ratios.
//   npm run bench:http            (builds first)
//   node bench/http-load.js [--clients 50] [--calls 200] [--rounds 2] [--modes stateful,stateless,modern] [--sdk-client]
// Each mode ends with PASS/MISS lines against issue 11's targets; BENCH_ASSERT=1 exits 1 on a miss.
// By default the clients are lean raw-HTTP sessions (bench/leanHttpClient.js): the SDK's client
// costs about three times a server's CPU per call, and on two cores that caps both servers at
// the same rate. --sdk-client drives the servers with the SDK's Client instead.
// PROF=toolwright (or raw) writes a CPU profile of that server to /tmp/prof2;
// TW_OPTS='{"eventStore":false}' passes listen options to the Toolwright server.
// BENCH_NODE=24 runs the servers on that Node major (see bench/lib.js serverNode()).
// --compare <checkout> adds a second Toolwright server, built in that checkout (e.g. a `git worktree`
// of an older commit, installed and built there), to every mode's rotation, beside this one's; the
// parent's TOOLWRIGHT_ROOT (bench/http-servers.js) points "toolwright" itself at another checkout.
// BENCH_HTTP_MODE=fetch compares the web-standard handlers on node instead, each behind the same
// Node adapter (@hono/node-server): Toolwright's fetch handler (createFetchHandler), Toolwright's
// native node listener, and the SDK v2's own web-standard handlers (createMcpHandler; a
// WebStandardStreamableHTTPServerTransport per session), reported as the fetch handler's ratios.

const { fork } = require('node:child_process');
const path = require('node:path');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { CallToolResultSchema } = require('@modelcontextprotocol/sdk/types.js');
const { LeanSession } = require('./leanHttpClient');
const { serverNode, serverNodeVersion } = require('./lib');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const CLIENTS = arg('clients', 50);
const CALLS = arg('calls', 200);
const ROUNDS = arg('rounds', 2);
const SDK_CLIENT = process.argv.includes('--sdk-client');
const modesArg = process.argv.indexOf('--modes');
const MODES = (modesArg >= 0 ? process.argv[modesArg + 1] : 'stateful,stateless,modern').split(',');
const FETCH = process.env.BENCH_HTTP_MODE === 'fetch';
const compareArg = process.argv.indexOf('--compare');
const COMPARE = compareArg >= 0 ? path.resolve(process.argv[compareArg + 1]) : undefined;
if (COMPARE && FETCH) throw new Error('--compare compares the node listeners: leave BENCH_HTTP_MODE unset');
if (process.env.BENCH_HTTP_MODE && !FETCH) throw new Error(`unknown BENCH_HTTP_MODE ${process.env.BENCH_HTTP_MODE}: use fetch, or leave it unset`);
const FETCH_KINDS = ['raw-v2-fetch', 'toolwright', 'toolwright-fetch'];
const KINDS = FETCH
  ? { stateful: FETCH_KINDS, stateless: FETCH_KINDS, modern: FETCH_KINDS }
  : { stateful: ['raw', 'raw-v2', 'toolwright'], stateless: ['raw', 'raw-v2', 'toolwright'], modern: ['raw-v2', 'toolwright'] };
if (COMPARE) for (const kinds of Object.values(KINDS)) kinds.push('toolwright-compare');
/** The server the ratios are of: Toolwright's node listener, or (fetch) its fetch handler. */
const SUBJECT = FETCH ? 'toolwright-fetch' : 'toolwright';
const LABELS = {
  raw: 'raw v1',
  'raw-v2': 'raw v2',
  toolwright: FETCH ? 'tw node' : 'toolwright',
  'toolwright-fetch': 'tw fetch',
  'raw-v2-fetch': 'v2 fetch',
  'toolwright-compare': `tw ${COMPARE && path.basename(COMPARE)}`,
};
for (const mode of MODES) if (!KINDS[mode]) throw new Error(`unknown mode ${mode}: use stateful, stateless or modern`);
if (SDK_CLIENT && MODES.includes('modern')) throw new Error('--sdk-client drives the legacy era only: add --modes stateful,stateless');
// Issue 11's targets (throughput, Toolwright / hand-written): today's ratios against the SDK v1, and ahead of the SDK v2 on every transport.
// Issue 24's (fetch): the fetch handler at least the SDK v2's own web-standard handler's throughput.
const TARGETS = FETCH
  ? { stateful: { 'raw-v2-fetch': 1.0 }, stateless: { 'raw-v2-fetch': 1.0 }, modern: { 'raw-v2-fetch': 1.0 } }
  : { stateful: { raw: 1.8, 'raw-v2': 1.0 }, stateless: { raw: 3.4, 'raw-v2': 1.0 }, modern: { 'raw-v2': 1.0 } };
const ASSERT = process.env.BENCH_ASSERT === '1';
const verdicts = [];
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function start(kind, mode) {
  const compare = kind === 'toolwright-compare';
  const child = fork(path.join(__dirname, 'http-servers.js'), [compare ? 'toolwright' : kind, mode === 'stateful' ? 'stateful' : 'stateless'], {
    execPath: serverNode(),
    ...(compare && { env: { ...process.env, TOOLWRIGHT_ROOT: COMPARE } }),
    execArgv: ['--expose-gc', ...(process.env.PROF && kind === process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof2'] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = [];
  child.on('message', (m) => pending.shift()?.(m));
  const next = () => new Promise((resolve) => pending.push(resolve));
  const ready = next();
  return {
    kind,
    child,
    ready: ready.then((m) => m.url),
    stats: () => {
      const reply = next();
      child.send({ type: 'stats' });
      return reply;
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill(process.env.PROF ? 'SIGINT' : 'SIGKILL');
      }),
  };
}

/** A session with the lean client: `call(name, args, progressToken?)` -> { result, progress: [{ token, message }] }. */
async function openLeanSession(url, c, mode) {
  const session = new LeanSession(url, `load-${c}`, mode === 'modern' ? 'modern' : 'legacy');
  await session.open();
  return {
    async call(name, args, progressToken) {
      const { result, notifications } = await session.request('tools/call', { name, arguments: args, ...(progressToken && { _meta: { progressToken } }) });
      const progress = notifications.filter((n) => n.method === 'notifications/progress').map((n) => ({ token: n.params.progressToken, message: n.params.message }));
      return { result, progress };
    },
    close: () => session.close(),
  };
}

/** The same with the SDK's Client (its `onprogress` only sees this request's token). */
async function openSdkSession(url, c) {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: `load-${c}`, version: '1' });
  await client.connect(transport);
  return {
    async call(name, args, progressToken) {
      const progress = [];
      const options = progressToken ? { onprogress: (p) => progress.push({ token: progressToken, message: p.message }) } : undefined;
      const result = await client.callTool({ name, arguments: args }, CallToolResultSchema, options);
      return { result, progress };
    },
    async close() {
      await transport.terminateSession();
      await client.close();
    },
  };
}

/** One client's session: CALLS calls, each checked to belong to this client. */
async function runClient(url, c, calls, problems, mode) {
  const session = await (SDK_CLIENT ? openSdkSession : openLeanSession)(url, c, mode);
  let failed = 0;
  let leaks = 0;
  for (let i = 0; i < calls; i++) {
    try {
      if (i % 10 === 0) {
        const tag = `c${c}-${i}`;
        const { result, progress } = await session.call('count_to', { n: 3, tag }, tag);
        if (result.isError || result.content[0].text !== `${tag} counted to 3`) leaks++;
        if (progress.length !== 3 || progress.some((p) => p.token !== tag || !p.message.startsWith(`${tag} `))) leaks++;
      } else if (i % 2 === 0) {
        const { result } = await session.call('get_weather', { location: 'Tokyo' });
        if (result.isError || !result.content[0].text.includes('"location":"Tokyo"')) failed++;
      } else {
        const a = c * 100000 + i;
        const { result } = await session.call('calculate', { operation: 'add', a, b: 0.5 });
        if (result.isError || !result.content[0].text.endsWith(`= ${a + 0.5}`)) leaks++;
      }
    } catch (error) {
      failed++;
      if (problems.length < 5) problems.push(`client ${c} call ${i}: ${error.message}`);
    }
  }
  await session.close();
  return { failed, leaks };
}

async function load(url, clients, calls, mode) {
  const problems = [];
  const started = process.hrtime.bigint();
  const results = await Promise.all(Array.from({ length: clients }, (_, c) => runClient(url, c, calls, problems, mode)));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    seconds,
    calls: clients * calls,
    failed: results.reduce((n, r) => n + r.failed, 0),
    leaks: results.reduce((n, r) => n + r.leaks, 0),
    problems,
  };
}

async function measure(kind, mode) {
  const server = start(kind, mode);
  const url = await server.ready;
  await load(url, 10, 50, mode); // warm-up
  const before = await server.stats();
  const run = await load(url, CLIENTS, CALLS, mode);
  const after = await server.stats();
  await server.stop();
  return {
    kind,
    ...run,
    rate: run.calls / run.seconds,
    cpuPerCall: (after.cpuMicros - before.cpuMicros) / run.calls,
    heapBefore: before.heapUsed,
    heapAfter: after.heapUsed,
    sessionsAfter: after.sessions,
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One mode: ROUNDS rounds of every server, rotating which goes first; returns the Toolwright runs. */
async function runMode(mode) {
  const kinds = KINDS[mode];
  console.log(`\n${mode}: ${CLIENTS} ${SDK_CLIENT ? 'SDK' : 'lean'} clients x ${CALLS} calls, ${ROUNDS} round(s)`);
  const runs = Object.fromEntries(kinds.map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const kind of kinds.map((_, i) => kinds[(i + r) % kinds.length])) {
      const m = await measure(kind, mode);
      runs[kind].push(m);
      console.log(
        `  ${LABELS[kind].padEnd(10)} ${m.rate.toFixed(0).padStart(6)} calls/s  ${(m.cpuPerCall / 1000).toFixed(3)} ms CPU/call  failed ${m.failed}  leaks ${m.leaks}  sessions after ${m.sessionsAfter}  heap ${mb(m.heapBefore)} -> ${mb(m.heapAfter)}`,
      );
      for (const p of m.problems) console.log(`    ${p}`);
    }
  }
  const rate = (kind) => median(runs[kind].map((m) => m.rate));
  const cpu = (kind) => median(runs[kind].map((m) => m.cpuPerCall));
  const baselines = kinds.filter((k) => k !== SUBJECT);
  console.log(
    `  median throughput: ${kinds.map((k) => `${LABELS[k]} ${rate(k).toFixed(0)}`).join(', ')} calls/s -> ${LABELS[SUBJECT]} ${baselines.map((k) => `${(rate(SUBJECT) / rate(k)).toFixed(2)}x ${LABELS[k]}`).join(', ')}`,
  );
  console.log(
    `  median server CPU per call: ${kinds.map((k) => `${LABELS[k]} ${(cpu(k) / 1000).toFixed(3)}`).join(', ')} ms -> ${LABELS[SUBJECT]} ${baselines.map((k) => `${(cpu(k) / cpu(SUBJECT)).toFixed(2)}x as efficient as ${LABELS[k]}`).join(', ')}`,
  );
  for (const k of baselines.filter((b) => TARGETS[mode][b] !== undefined)) {
    const need = TARGETS[mode][k];
    const got = rate(SUBJECT) / rate(k);
    const verdict = got >= need ? 'PASS' : 'MISS';
    verdicts.push({ mode, baseline: LABELS[k], need, got, verdict });
    console.log(`  target: throughput >= ${need.toFixed(1)}x ${LABELS[k]}: ${verdict} (${got.toFixed(2)}x)`);
  }
  return runs[SUBJECT];
}

async function main() {
  console.log(
    `Streamable HTTP load${FETCH ? ' (BENCH_HTTP_MODE=fetch: web-standard handlers behind @hono/node-server)' : ''}, modes ${MODES.join(', ')}; servers started one at a time, on Node ${serverNodeVersion()}${process.env.BENCH_NODE ? ' (BENCH_NODE)' : ''}`,
  );
  const toolwright = [];
  for (const mode of MODES) toolwright.push(...(await runMode(mode)));
  const bad = toolwright.some((m) => m.failed > 0 || m.leaks > 0 || m.sessionsAfter !== 0 || m.heapAfter - m.heapBefore > 10 * 1024 * 1024);
  if (bad) {
    console.error(`FAIL: ${LABELS[SUBJECT]} had failed calls, leaks, sessions left open, or a heap that did not return near its baseline.`);
    process.exit(1);
  }
  console.log('\nOK: zero failed calls, zero cross-session leaks, all sessions closed, heap back near baseline.');
  const missed = verdicts.filter((v) => v.verdict !== 'PASS');
  console.log(
    `${verdicts.length - missed.length}/${verdicts.length} targets held${missed.length ? ` (missed: ${missed.map((v) => `${v.mode} vs ${v.baseline} ${v.got.toFixed(2)}x < ${v.need}x`).join('; ')})` : ''}. Throughput is noisy on a shared machine: read the CPU per call too.`,
  );
  if (ASSERT && missed.length > 0) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
