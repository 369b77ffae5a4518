#!/usr/bin/env node
// Soak: bench/soak-server.js served over stdio (one process per era) and over HTTP (one
// process, both eras) under mixed load for SOAK_MINUTES (default 60; hours-scale runs:
// SOAK_MINUTES=240; `npm run soak:ci` runs 10). Well-behaved calls in both protocol eras (2025-11-25 sessions and
// 2026-07-28 requests with their envelope), calls that ask the client's model (sampling) or
// the user (elicitation), answered as each era does it (a server-to-client request, or an
// input_required result and a retry), mixed with hostile clients: malformed frames and
// bodies, ids the SDK rejects, idle sockets, slow headers, stalled bodies, abandoned sessions.
// The stdio clients send 50 frames every 100 ms, holding back while 1000 requests wait for
// an answer (STDIO_WINDOW); the HTTP clients send SOAK_HTTP_RATE requests a second between them.
// Every server reports its own memory every 5 s (RSS and heap used, after a full GC: they run
// with --expose-gc), and the soak reads each one's open file descriptors from /proc. At the
// end it prints a report, with the HTTP server's memory minute by minute, and exits 1 (FAIL)
// if a request was lost (sent with a usable id, never answered), a server stopped serving, a
// hostile socket was not closed by the server, or memory kept growing after the warm-up:
// over the second half of the load, the Theil-Sen slope of any server's heap or RSS (both
// after GC), carried over that half, adds more than bench/memoryTrend.js allows (heap: 4 MiB
// or 10%; RSS: 16 MiB or 10%; for the HTTP server, beyond what the number of live sessions
// explains, and that number may not rise by more than 100 or half), or the open fds of the
// last quarter exceed the second quarter's by 16.
// Sessions: the soak server closes a session idle for SOAK_SESSION_IDLE_MS (default 60000),
// so the sessions clients walk away from reach a steady number within the warm-up. With the
// default idle timeout (30 minutes) they pile up to the session limits first, by design.
// SOAK_MEMORY_LOG=file appends each of the HTTP server's memory reports to file (JSON lines);
// `node bench/memoryTrend.js file` judges and tabulates it. SOAK_SERVER_FLAGS replaces the
// servers' node flags (default --expose-gc), e.g. add --heapsnapshot-signal=SIGUSR2 and compare
// snapshots with bench/heap-diff.js.
// Usage: npm run soak  (npm run soak:ci for the 10-minute run CI can afford; needs a build)
'use strict';
const { spawn } = require('node:child_process');
const { readFileSync, readdirSync } = require('node:fs');
const net = require('node:net');
const { join } = require('node:path');
const { curve, trend } = require('./memoryTrend');
const { readLines } = require('./readLines');

const MINUTES = Number(process.env.SOAK_MINUTES ?? 60);
const END = Date.now() + MINUTES * 60_000;
const SERVER = join(__dirname, 'soak-server.js');
/** The servers' node flags: SOAK_SERVER_FLAGS, default --expose-gc (their memory reports are taken after a full GC). */
const SERVER_FLAGS = (process.env.SOAK_SERVER_FLAGS ?? '--expose-gc').split(' ').filter(Boolean);
const { VERSION, ACCEPT, GOOD, HOSTILE, inEra, modernHeaders, answerTo, retryOf } = require('./soakMix');

const stats = {
  stdio: { sent: 0, answered: 0, serverRequestsAnswered: 0 },
  stdioModern: { sent: 0, answered: 0, rounds: 0 },
  http: { sent: 0, answered: 0, refused: 0, serverRequestsAnswered: 0 },
  httpModern: { sent: 0, answered: 0, refused: 0, rounds: 0 },
  hostileSockets: {},
  errors: [],
};
const pending = { stdio: new Map(), stdioModern: new Map(), http: new Map(), httpModern: new Map() };
let seq = 0;
const nextId = (prefix) => `${prefix}${++seq}`;
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function sample(pid) {
  try {
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
    return { t: Date.now(), rss, fds: readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return undefined;
  }
}

/** Starts a stdio server and its load in one era; `done` settles when the run is over. */
function stdioLoad(modern) {
  const name = modern ? 'stdioModern' : 'stdio';
  const child = spawn(process.execPath, [...SERVER_FLAGS, SERVER], { stdio: ['pipe', 'pipe', 'pipe'] });
  readReports(child, name);
  const sentRequests = new Map();
  readLines(child.stdout, (line) => {
    const m = JSON.parse(line);
    // The server asks the client (2025 era): sampling, elicitation. Answered at once.
    if ('method' in m && 'id' in m) {
      stats[name].serverRequestsAnswered = (stats[name].serverRequestsAnswered ?? 0) + 1;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: m.id, result: answerTo(m.method) })}\n`);
      return;
    }
    if (!('result' in m || 'error' in m)) return;
    const request = sentRequests.get(m.id);
    sentRequests.delete(m.id);
    // 2026-07-28: an input_required result is answered by a retry, a new request.
    if (request && m.result?.resultType === 'input_required') {
      stats[name].rounds++;
      const id = nextId('sr');
      send(JSON.stringify(retryOf(request, m.result, id)), id, retryOf(request, m.result, id));
    }
    if (m.id !== null && pending[name].delete(m.id)) stats[name].answered++;
    else if (m.id === null) stats[name].answered++;
  });
  const send = (text, id, request) => {
    stats[name].sent++;
    if (id !== undefined) pending[name].set(id, Date.now());
    if (request) sentRequests.set(id, request);
    child.stdin.write(`${text}\n`);
  };
  if (!modern) {
    const init = {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: VERSION, capabilities: { sampling: {}, elicitation: {} }, clientInfo: { name: 'soak', version: '1' } },
    };
    send(JSON.stringify(init), 'init');
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  }
  return { child, done: load(send, modern, () => pending[name].size) };
}

/**
 * Requests a stdio client leaves unanswered at most: past it, it waits before sending more.
 * Without it, a server slower than the load (a busy machine) gathers an endless backlog,
 * which reads as lost requests and growing memory though nothing leaks.
 */
const STDIO_WINDOW = 1000;

/** 50 frames every 100 ms while fewer than STDIO_WINDOW requests wait for their answer. */
async function load(send, modern, waiting) {
  while (Date.now() < END) {
    if (waiting() >= STDIO_WINDOW) {
      await sleep(20);
      continue;
    }
    for (let i = 0; i < 50; i++) {
      if (Math.random() < 0.2) {
        const f = pick(HOSTILE)(nextId('sh'));
        send(f.text, f.answered ?? undefined);
      } else {
        const id = nextId('s');
        const request = inEra(modern, { jsonrpc: '2.0', id, ...pick(GOOD) });
        send(JSON.stringify(request), id, request);
      }
    }
    await sleep(100);
  }
}

async function post(url, body, headers, onServerRequest) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body, signal: AbortSignal.timeout(15_000) });
  if (!onServerRequest || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return { status: response.status, headers: response.headers, text: await response.text() };
  // An SSE response: the server's own requests (sampling, elicitation) are answered while the stream is open.
  let text = '';
  let seen = 0;
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    text += decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    for (; seen < lines.length - 1; seen++) {
      if (!lines[seen].startsWith('data: {')) continue;
      const m = JSON.parse(lines[seen].slice(6));
      if ('method' in m && 'id' in m) await onServerRequest(m);
    }
  }
  return { status: response.status, headers: response.headers, text };
}

/**
 * Opens a 2025-11-25 session. An initialize the server refuses (429 past its initialize rate,
 * 503 at its session limit) is sent again after its Retry-After (at most 5 s), as a client
 * would (up to 60 times), instead of going on without a session (every request then refused,
never answered).
 */
async function openSession(url) {
  let r;
  for (let tries = 0; tries < 60; tries++) {
    r = await post(
      url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: VERSION, capabilities: { sampling: {}, elicitation: {} }, clientInfo: { name: 'soak', version: '1' } },
      }),
    );
    if (r.headers.get('mcp-session-id')) break;
    stats.http.initializeRefused = (stats.http.initializeRefused ?? 0) + 1;
    await sleep(Math.min(5, Number(r.headers.get('retry-after')) || 1) * 1000);
  }
  const id = r.headers.get('mcp-session-id');
  const headers = { 'mcp-session-id': id, 'mcp-protocol-version': VERSION };
  await post(url, '{"jsonrpc":"2.0","method":"notifications/initialized"}', headers);
  return headers;
}

/** Counts every answer in an SSE or JSON body against the ids waiting for one; returns the messages. */
function settle(text, name) {
  const messages =
    text.startsWith('{') || text.startsWith('[')
      ? [].concat(JSON.parse(text))
      : text
          .split('\n')
          .filter((l) => l.startsWith('data: {'))
          .map((l) => JSON.parse(l.slice(6)));
  for (const m of messages) if (('result' in m || 'error' in m) && pending[name].delete(m.id)) stats[name].answered++;
  return messages;
}

/** Mean time a 2025-11-25 HTTP client keeps its session before walking away from it. */
const SESSION_LIFE_MS = 2000;
/** When a client next walks away from its session: SESSION_LIFE_MS on average, spread ±50%. */
const nextWalkAway = () => Date.now() + SESSION_LIFE_MS * (0.5 + Math.random());
/**
 * Requests a second all HTTP clients send together (SOAK_HTTP_RATE, default 300; 0: as fast as
 * the server answers). A fixed rate, below what a busy 2-core machine sustains (about 550 a
 * second with CI's other work beside it), keeps the traffic, and with it the server's RSS, the
 * same when other work starts or ends mid-soak.
 */
const HTTP_RATE = Number(process.env.SOAK_HTTP_RATE ?? 300);
const HTTP_CLIENTS = { legacy: 6, modern: 4 };
/** Waits for a client's next turn at its share of HTTP_RATE; a client that fell behind does not burst to catch up. */
function pacer() {
  const interval = HTTP_RATE > 0 ? (1000 * (HTTP_CLIENTS.legacy + HTTP_CLIENTS.modern)) / HTTP_RATE : 0;
  let nextAt = Date.now() + Math.random() * interval;
  return async () => {
    if (interval === 0) return;
    const wait = nextAt - Date.now();
    if (wait > 0) await sleep(wait);
    nextAt = Math.max(nextAt + interval, Date.now());
  };
}

async function httpClient(url, modern) {
  const name = modern ? 'httpModern' : 'http';
  let headers = modern ? {} : await openSession(url);
  let walkAwayAt = nextWalkAway();
  const turn = pacer();
  const answerServer = async (m) => {
    stats.http.serverRequestsAnswered++;
    await post(url, JSON.stringify({ jsonrpc: '2.0', id: m.id, result: answerTo(m.method) }), headers);
  };
  const exchange = async (text, answered, request) => {
    stats[name].sent++;
    if (answered !== null) pending[name].set(answered, Date.now());
    const r = await post(url, text, modern && request ? { ...headers, ...modernHeaders(request) } : headers, modern ? undefined : answerServer);
    if (r.status === 200) return settle(r.text, name);
    const m = JSON.parse(r.text);
    if (pending[name].delete(m.id)) stats[name].answered++;
    else stats[name].refused++;
    return [];
  };
  while (Date.now() < END) {
    await turn();
    const hostile = Math.random() < 0.2;
    const id = nextId(modern ? 'm' : 'h');
    try {
      if (hostile) {
        const frame = pick(HOSTILE)(id);
        await exchange(frame.text, frame.answered, undefined);
      } else {
        let request = inEra(modern, { jsonrpc: '2.0', id, ...pick(GOOD) });
        // 2026-07-28 round trips: an input_required result is answered with a retry.
        for (let round = 0; round < 4 && request; round++) {
          const messages = await exchange(JSON.stringify(request), request.id, request);
          const result = messages.find((m) => m.id === request.id)?.result;
          if (result?.resultType !== 'input_required') break;
          stats.httpModern.rounds++;
          request = retryOf(request, result, nextId('mr'));
        }
      }
    } catch (error) {
      stats.errors.push(`${name}: ${error.message}`);
    }
    // Now and then a client walks away from its session (left to expire) or ends it: on a clock,
    // not per request, so the number of live sessions does not follow the machine's load (CI
    // runs other tests beside the soak; clients that speed up when they finish would otherwise
    // open sessions faster in the judged half and read as sessions kept open).
    if (!modern && Date.now() >= walkAwayAt) {
      walkAwayAt = nextWalkAway();
      if (Math.random() < 0.5) await fetch(url, { method: 'DELETE', headers });
      headers = await openSession(url);
    }
  }
}

/** Idle sockets, slow headers and stalled bodies: each must be closed by the server, not held. */
async function hostileSockets(port) {
  while (Date.now() < END) {
    const kind = pick(['idle', 'slow headers', 'stalled body']);
    const counts = (stats.hostileSockets[kind] ??= { opened: 0, closedByServer: 0, slowestCloseSeconds: 0, open: 0 });
    counts.opened++;
    counts.open++;
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.resume(); // read (and drop) what the server sends, so its closing is seen
    let drip;
    socket.on('connect', () => {
      if (kind === 'slow headers') {
        socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        drip = setInterval(() => socket.write(`X-Drip: ${Date.now()}\r\n`), 1000);
      } else if (kind === 'stalled body') {
        socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\nContent-Length: 4000000\r\n\r\n{"jsonrpc":"2.0","pad":"`);
        socket.write('x'.repeat(1_000_000));
      }
    });
    const opened = Date.now();
    let byUs = false;
    // The server ends the connection (FIN), or resets it (RST: 'close' without 'end'); what we
    // would do ourselves after 60 s does not count.
    let seen = false;
    const closedByServer = () => {
      if (byUs || seen) return;
      seen = true;
      counts.closedByServer++;
      counts.slowestCloseSeconds = Math.max(counts.slowestCloseSeconds, Math.round((Date.now() - opened) / 1000));
    };
    socket.on('end', closedByServer);
    socket.on('close', () => {
      closedByServer();
      clearInterval(drip);
      counts.open--;
    });
    setTimeout(() => {
      if (socket.destroyed) return;
      byUs = true;
      counts.closedByUs = (counts.closedByUs ?? 0) + 1;
      socket.destroy();
    }, 60_000).unref();
    await sleep(500);
  }
}

/** Whether a series of counts (open fds) kept growing: the last quarter's median against the second quarter's. */
function growth(series, field, { ratio, absolute }) {
  if (series.length < 8) return { grew: false };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const q = Math.floor(series.length / 4);
  const early = median(series.slice(q, 2 * q).map((s) => s[field]));
  const late = median(series.slice(3 * q).map((s) => s[field]));
  return { early: Math.round(early), late: Math.round(late), grew: late > early * ratio && late - early > absolute };
}

/** Each server's memory reports (soak-server.js prints them on stderr), by process: RSS and heap used after a full GC, MiB. */
const reports = { stdio: [], stdioModern: [], http: [] };

/**
 * Reads a server's stderr: its memory reports go to `reports[name]` (and, for the HTTP server, to
 * SOAK_MEMORY_LOG), its URL to `onUrl`; the HTTP server's other lines (it logs nothing but
 * failures) go through to ours, the stdio servers' log (a warning for each hostile frame) nowhere.
 */
function readReports(child, name, onUrl) {
  readLines(child.stderr, (line) => {
    const m = /^\{"url":"([^"]+)"/.exec(line);
    if (m) onUrl?.(m[1]);
    else if (line.startsWith('{"memory":')) {
      reports[name].push({ t: Date.now(), ...JSON.parse(line).memory });
      if (name === 'http' && process.env.SOAK_MEMORY_LOG) require('node:fs').appendFileSync(process.env.SOAK_MEMORY_LOG, `${JSON.stringify(reports.http.at(-1))}\n`);
    } else if (name === 'http') process.stderr.write(`soak-server: ${line}\n`);
  });
}

async function main() {
  const http = spawn(process.execPath, [...SERVER_FLAGS, SERVER, '--http'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise((resolve) => readReports(http, 'http', resolve));
  const port = Number(new URL(url).port);
  const stdio = stdioLoad(false);
  const stdioModern = stdioLoad(true);
  const processes = { stdio: stdio.child.pid, stdioModern: stdioModern.child.pid, http: http.pid };
  const series = { stdio: [], stdioModern: [], http: [] };
  const samples = setInterval(() => {
    for (const [name, pid] of Object.entries(processes)) {
      const s = sample(pid);
      if (s) series[name].push(s);
    }
  }, 5000);
  const started = Date.now();
  await Promise.all([
    stdio.done,
    stdioModern.done,
    ...Array.from({ length: HTTP_CLIENTS.legacy }, () => httpClient(url, false)),
    ...Array.from({ length: HTTP_CLIENTS.modern }, () => httpClient(url, true)),
    hostileSockets(port),
  ]);
  const loadEnded = Date.now();
  // Calls still running answer now; the last hostile sockets get the longest timeout (30 s) to be let go.
  await sleep(35_000);
  clearInterval(samples);
  const final = Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, sample(pid)]));
  const alive = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 'alive', method: 'ping' }), await openSession(url)).then(
    (r) => r.status === 200,
    () => false,
  );
  const aliveModern = await post(url, JSON.stringify(inEra(true, { jsonrpc: '2.0', id: 'alive', method: 'tools/list' })), modernHeaders({ method: 'tools/list' })).then(
    (r) => r.status === 200,
    () => false,
  );
  stdio.child.stdin.end();
  stdioModern.child.stdin.end();
  http.kill('SIGTERM');
  // Growth is judged on the samples taken under load.
  const underLoad = (name) => series[name].slice(0, Math.max(1, Math.floor(((loadEnded - started) / 5000) | 0)));
  const figures = (name) => {
    // Both HTTP eras are served by one process.
    const proc = name.startsWith('http') ? 'http' : name;
    const all = series[proc];
    // Each server's own reports, taken after a full GC: RSS and heap used (and the HTTP server's live sessions).
    const memory = reports[proc];
    const rss = trend(memory, 'rss', started, loadEnded);
    const heap = trend(memory, 'heapUsed', started, loadEnded);
    const sessions = proc === 'http' ? trend(memory, 'sessions', started, loadEnded) : undefined;
    const fds = growth(underLoad(proc), 'fds', { ratio: 1, absolute: 16 });
    return {
      ...stats[name],
      lost: pending[name].size,
      peakRssMiB: Math.round(Math.max(0, ...all.map((s) => s.rss))),
      finalRssMiB: Math.round(final[proc]?.rss ?? 0),
      rssTrend: rss,
      rssKeptGrowing: rss.grew,
      heapTrend: heap,
      heapKeptGrowing: heap.grew,
      ...(sessions && { sessionsTrend: sessions }),
      peakFds: Math.max(0, ...all.map((s) => s.fds)),
      finalFds: final[proc]?.fds,
      fdsKeptGrowing: fds.grew,
    };
  };
  const socketsLeftOpen = Object.values(stats.hostileSockets).reduce((n, c) => n + (c.opened - c.closedByServer), 0);
  const report = {
    minutes: Math.round((Date.now() - started) / 600) / 100,
    stdio: figures('stdio'),
    stdioModern: figures('stdioModern'),
    http: { ...figures('http'), stillServing: alive },
    httpModern: { ...figures('httpModern'), stillServing: aliveModern },
    // minute, RSS MiB, heap used after GC MiB, live sessions: the HTTP server, one row a minute.
    httpMemoryByMinute: curve(reports.http, started).map((r) => [r.minute, r.rssMiB, r.heapUsedMiB, r.sessions]),
    hostileSockets: stats.hostileSockets,
    socketsLeftOpen,
    clientErrors: stats.errors.length,
    firstErrors: stats.errors.slice(0, 3),
  };
  const failures = [];
  for (const name of ['stdio', 'stdioModern', 'http', 'httpModern']) {
    if (report[name].lost > 0) failures.push(`${name}: ${report[name].lost} requests lost`);
    for (const kind of ['rss', 'heap']) {
      const t = report[name][`${kind}Trend`];
      if (t?.grew)
        failures.push(`${name}: ${kind === 'rss' ? 'RSS' : 'heap used after GC'} kept growing after the warm-up: +${t.riseMiB} MiB over the last ${t.judgedMinutes} min (allowed ${t.allowedMiB})`);
    }
    const live = report[name].sessionsTrend;
    if (live?.grew)
      failures.push(`${name}: live sessions kept growing after the warm-up: +${live.riseMiB} over the last ${live.judgedMinutes} min (allowed ${live.allowedMiB}): are idle sessions closed?`);
    if (report[name].fdsKeptGrowing) failures.push(`${name}: open fds kept growing`);
  }
  if (!alive || !aliveModern) failures.push('the HTTP server stopped serving');
  if (socketsLeftOpen > 0) failures.push(`${socketsLeftOpen} hostile sockets were not closed by the server`);
  report.result = failures.length === 0 ? 'PASS' : 'FAIL';
  report.failures = failures;
  console.log(JSON.stringify(report, null, 2));
  process.exit(failures.length === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
