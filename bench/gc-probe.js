'use strict';
// Preload for bench/stdio-memory.js (`node --expose-gc -r ./bench/gc-probe.js <server>`): on
// SIGUSR2 the server collects its garbage twice and writes its memory figures to stderr as one
// JSON line (stdout belongs to the protocol). Loads nothing but node:v8.
const v8 = require('node:v8');

process.on('SIGUSR2', () => {
  globalThis.gc();
  globalThis.gc();
  const { heapUsed, heapTotal, external, rss } = process.memoryUsage();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size]));
  process.stderr.write(`gc-probe ${JSON.stringify({ heapUsed, heapTotal, external, rss, spaces })}\n`);
});
