#!/usr/bin/env node
// Compares two V8 heap snapshots (.heapsnapshot, e.g. from `node --heapsnapshot-signal=SIGUSR2`
// or v8.writeHeapSnapshot()): objects counted and sized by constructor, the growth from the first
// to the second, largest first. Finds what a soak's growing heap is made of.
// Usage: node bench/heap-diff.js before.heapsnapshot after.heapsnapshot [rows]
'use strict';
const { readFileSync } = require('node:fs');

/** Count and self size per "type:name" (object nodes by constructor; strings, arrays, code and native data by type). */
function census(file) {
  const snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const meta = snapshot.snapshot.meta;
  const fields = meta.node_fields;
  const types = meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const { nodes, strings } = snapshot;
  const byKey = new Map();
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    // Strings are grouped by type alone: their names are their contents.
    const name = type === 'object' || type === 'closure' || type === 'native' || type === 'hidden' ? strings[nodes[i + nameAt]] : '';
    const key = `${type}:${name.length > 80 ? `${name.slice(0, 77)}...` : name}`;
    const entry = byKey.get(key) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += nodes[i + sizeAt];
    byKey.set(key, entry);
  }
  return byKey;
}

function main() {
  const [before, after, rows = '40'] = process.argv.slice(2);
  if (!before || !after) {
    console.error('Usage: node bench/heap-diff.js before.heapsnapshot after.heapsnapshot [rows]');
    process.exit(2);
  }
  const a = census(before);
  const b = census(after);
  const keys = new Set([...a.keys(), ...b.keys()]);
  const diff = [...keys].map((key) => {
    const x = a.get(key) ?? { count: 0, size: 0 };
    const y = b.get(key) ?? { count: 0, size: 0 };
    return { key, count: y.count, countDelta: y.count - x.count, sizeKiB: Math.round(y.size / 1024), sizeDeltaKiB: Math.round((y.size - x.size) / 1024) };
  });
  diff.sort((p, q) => q.sizeDeltaKiB - p.sizeDeltaKiB);
  const total = (m) => Math.round([...m.values()].reduce((n, e) => n + e.size, 0) / 1024);
  console.log(`total self size: ${total(a)} KiB -> ${total(b)} KiB`);
  console.table(diff.slice(0, Number(rows)));
  diff.sort((p, q) => q.countDelta - p.countDelta);
  console.log('by count growth:');
  console.table(diff.slice(0, Number(rows)));
}

main();
