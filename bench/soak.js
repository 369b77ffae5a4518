#!/usr/bin/env node
// Soak: the weather example served over stdio and over HTTP (each its own process) under
// mixed load for SOAK_MINUTES (default 60; hours-scale runs: SOAK_MINUTES=240), well-behaved
// calls mixed with hostile clients: malformed frames and bodies, ids the SDK rejects, idle
// sockets, slow headers, stalled bodies, abandoned sessions. Every 5 s it samples each
// server's resident memory and open file descriptors; at the end it prints a report:
// duration, requests sent and answered, requests lost (sent with a usable id, never
// answered), peak and final RSS and fds, and whether the servers were still serving.
// Usage: npm run soak  (SOAK_MINUTES=10 npm run soak for a short run)
'use strict';
const { spawn } = require('node:child_process');
const { readFileSync, readdirSync } = require('node:fs');
const net = require('node:net');
const { join } = require('node:path');

const MINUTES = Number(process.env.SOAK_MINUTES ?? 60);
const END = Date.now() + MINUTES * 60_000;
const SERVER = join(__dirname, '..', 'examples', 'weather', 'dist', 'server.js');
const VERSION = '2025-11-25';
const ACCEPT = 'application/json, text/event-stream';

const GOOD = [
  { method: 'tools/list' },
  { method: 'ping' },
  { method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'Tokyo' } } },
  { method: 'tools/call', params: { name: 'calculate', arguments: { operation: 'add', a: 1, b: 2 } } },
  { method: 'tools/call', params: { name: 'get_weather', arguments: { location: 42 } } },
  { method: 'no/such/method' },
];
/** Frames the SDK rejects; `answered` is the id their answer must carry. */
const HOSTILE = [
  (id) => ({ text: `{"jsonrpc":"2.0","id":"${id}","method":"ping","extra":1}`, answered: id }),
  (id) => ({ text: `{"jsonrpc":"2.0","id":"${id}","method":"ping","params":[1]}`, answered: id }),
  (id) => ({ text: `{"jsonrpc":"2.0","id":"${id}","method":"resources/read","params":null}`, answered: id }),
  () => ({ text: '{"jsonrpc":"2.0","id":1e20,"method":"ping"}', answered: null }),
  () => ({ text: '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', answered: null }),
  () => ({ text: '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', answered: null }),
  () => ({ text: '{"jsonrpc":"2.0","id":', answered: null }),
  () => ({ text: '{"hello":"world"}', answered: null }),
];

const stats = { stdio: { sent: 0, answered: 0 }, http: { sent: 0, answered: 0, refused: 0 }, hostileSockets: {}, errors: [] };
const pending = { stdio: new Map(), http: new Map() };
let seq = 0;
const nextId = (prefix) => `${prefix}${++seq}`;
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function sample(pid) {
  try {
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
    return { rss, fds: readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return undefined;
  }
}

/** Starts the stdio server and its load; `done` settles when the run is over. */
function stdioLoad() {
  const child = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'ignore'] });
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop();
    for (const line of lines) {
      const m = JSON.parse(line);
      if (!('result' in m || 'error' in m)) continue;
      if (m.id !== null && pending.stdio.delete(m.id)) stats.stdio.answered++;
      else if (m.id === null) stats.stdio.answered++;
    }
  });
  const send = (text, id) => {
    stats.stdio.sent++;
    if (id !== undefined) pending.stdio.set(id, Date.now());
    child.stdin.write(`${text}\n`);
  };
  send(JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'soak', version: '1' } } }), 'init');
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  return { child, done: load(send) };
}

async function load(send) {
  while (Date.now() < END) {
    for (let i = 0; i < 50; i++) {
      if (Math.random() < 0.2) {
        const f = pick(HOSTILE)(nextId('sh'));
        send(f.text, f.answered ?? undefined);
      } else {
        const id = nextId('s');
        send(JSON.stringify({ jsonrpc: '2.0', id, ...pick(GOOD) }), id);
      }
    }
    await sleep(100);
  }
}

async function post(url, body, headers) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body, signal: AbortSignal.timeout(15_000) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function openSession(url) {
  const r = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'soak', version: '1' } } }));
  const id = r.headers.get('mcp-session-id');
  const headers = { 'mcp-session-id': id, 'mcp-protocol-version': VERSION };
  await post(url, '{"jsonrpc":"2.0","method":"notifications/initialized"}', headers);
  return headers;
}

/** Counts every answer in an SSE or JSON body against the ids waiting for one. */
function settle(text) {
  const messages = text.startsWith('{') || text.startsWith('[') ? [].concat(JSON.parse(text)) : text.split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)));
  for (const m of messages) if (('result' in m || 'error' in m) && pending.http.delete(m.id)) stats.http.answered++;
}

async function httpClient(url) {
  let headers = await openSession(url);
  while (Date.now() < END) {
    const hostile = Math.random() < 0.2;
    const id = nextId('h');
    const frame = hostile ? pick(HOSTILE)(id) : { text: JSON.stringify({ jsonrpc: '2.0', id, ...pick(GOOD) }), answered: id };
    stats.http.sent++;
    if (frame.answered !== null) pending.http.set(frame.answered, Date.now());
    try {
      const r = await post(url, frame.text, headers);
      if (r.status === 200) settle(r.text);
      else {
        const m = JSON.parse(r.text);
        if (pending.http.delete(m.id)) stats.http.answered++;
        else stats.http.refused++;
      }
    } catch (error) {
      stats.errors.push(`http: ${error.message}`);
    }
    // Now and then a client walks away from its session (left to expire) or ends it.
    if (Math.random() < 0.01) {
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
    // The server ends the connection (FIN); what we would do ourselves after 60 s does not count.
    socket.on('end', () => {
      if (byUs) return;
      counts.closedByServer++;
      counts.slowestCloseSeconds = Math.max(counts.slowestCloseSeconds, Math.round((Date.now() - opened) / 1000));
    });
    socket.on('close', () => {
      clearInterval(drip);
      counts.open--;
    });
    setTimeout(() => {
      byUs = true;
      socket.destroy();
    }, 60_000).unref();
    await sleep(500);
  }
}

async function main() {
  const http = spawn(process.execPath, [SERVER, '--http', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise((resolve) => {
    let err = '';
    http.stderr.setEncoding('utf8').on('data', (chunk) => {
      err += chunk;
      const m = /"url":"([^"]+)"/.exec(err);
      if (m) resolve(m[1]);
    });
  });
  const port = Number(new URL(url).port);
  const peaks = { stdio: { rss: 0, fds: 0 }, http: { rss: 0, fds: 0 } };
  const stdio = stdioLoad();
  const samples = setInterval(() => {
    for (const [name, pid] of [['stdio', stdio.child.pid], ['http', http.pid]]) {
      const s = sample(pid);
      if (!s) continue;
      peaks[name].rss = Math.max(peaks[name].rss, s.rss);
      peaks[name].fds = Math.max(peaks[name].fds, s.fds);
    }
  }, 5000);
  const started = Date.now();
  await Promise.all([stdio.done, ...Array.from({ length: 8 }, () => httpClient(url)), hostileSockets(port)]);
  // Calls still running answer now; the last hostile sockets get the longest timeout (30 s) to be let go.
  await sleep(35_000);
  clearInterval(samples);
  const final = { stdio: sample(stdio.child.pid), http: sample(http.pid) };
  const alive = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 'alive', method: 'ping' }), await openSession(url)).then((r) => r.status === 200, () => false);
  stdio.child.stdin.end();
  http.kill('SIGTERM');
  const report = {
    minutes: Math.round((Date.now() - started) / 600) / 100,
    stdio: { ...stats.stdio, lost: pending.stdio.size, peakRssMiB: Math.round(peaks.stdio.rss), peakFds: peaks.stdio.fds, finalRssMiB: Math.round(final.stdio?.rss ?? 0), finalFds: final.stdio?.fds },
    http: { ...stats.http, lost: pending.http.size, peakRssMiB: Math.round(peaks.http.rss), peakFds: peaks.http.fds, finalRssMiB: Math.round(final.http?.rss ?? 0), finalFds: final.http?.fds, stillServing: alive },
    hostileSockets: stats.hostileSockets,
    clientErrors: stats.errors.length,
    firstErrors: stats.errors.slice(0, 3),
  };
  console.log(JSON.stringify(report, null, 2));
  process.exit(report.stdio.lost + report.http.lost === 0 && alive ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
