#!/usr/bin/env node
'use strict';
/**
 * Long stdio lines: is reading a line linear in its length? Spawns the built weather example
 * over stdio, sends `ping` requests padded to 1, 3 and 12 MiB, and prints the fastest of
 * three times for each with the time per MiB. A reader that rescans its buffer on every
 * chunk grows quadratically: 12 MiB would take ~15x as long as 3 MiB instead of ~4x.
 *
 *   npm run build && node bench/long-lines.js
 *
 * This was a test; a time bound on a shared 2-core machine is noise, so it is measured here
 * and the tests keep the bounded-memory check (stdio-hostile.e2e.test.ts).
 */
const { spawn } = require('node:child_process');
const path = require('node:path');

const SERVER = path.join(__dirname, '..', 'examples', 'weather', 'dist', 'server.js');

function start() {
  const child = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const message = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  const request = (message) =>
    new Promise((resolve) => {
      waiting.set(message.id, resolve);
      child.stdin.write(`${JSON.stringify(message)}\n`);
    });
  return { child, request };
}

async function main() {
  const { child, request } = start();
  await request({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'long-lines', version: '1' } } });
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  let n = 0;
  const timeLine = async (mib) => {
    const pad = 'y'.repeat(mib * 1024 * 1024);
    const started = process.hrtime.bigint();
    await request({ jsonrpc: '2.0', id: ++n, method: 'ping', params: { _meta: { pad } } });
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  await timeLine(1);
  const rows = [];
  for (const mib of [1, 3, 12]) {
    const fastest = Math.min(await timeLine(mib), await timeLine(mib), await timeLine(mib));
    rows.push({ MiB: mib, 'fastest of 3 (ms)': Number(fastest.toFixed(1)), 'ms per MiB': Number((fastest / mib).toFixed(2)) });
  }
  console.table(rows);
  const ratio = rows[2]['fastest of 3 (ms)'] / rows[1]['fastest of 3 (ms)'];
  console.log(`12 MiB / 3 MiB: ${ratio.toFixed(2)}x (linear: ~4x; a reader rescanning its buffer: ~15x)`);
  child.kill();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
