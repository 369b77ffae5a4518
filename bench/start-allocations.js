#!/usr/bin/env node
// Who allocates during a cold start, side by side: each server starts under bench/alloc-sampler.js,
// answers the first request of an era and exits at end of input; the allocations are summed per
// owner (a module of a Toolwright bundle, a package's file, the server's own script) and the
// largest differences from the first server are listed. Find what to trim when Toolwright's start
// allocates or keeps more than a hand-written server's (bench/README.md).
//   node bench/start-allocations.js [--live] [--era legacy|modern] [--rows 30] [--node <binary>] [-- <server script> ...]
// --live counts only what is still alive at exit (what a start leaves in the heap); without it every
// allocation counts, garbage included (what the young collections of the start have to work through).
// Without scripts it compares raw v2 (bench/raw-server-v2.js) with the weather example. The sampling
// is statistical (one sample per 256 bytes on average): differences under ~20 KiB are noise.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { serverArgs, firstRequest } = require('./startBench');

const ROOT = path.resolve(__dirname, '..');
const { flag, has, node, scripts } = serverArgs();
const live = has('live');
const era = flag('era', 'legacy');
const rows = Number(flag('rows', 30));

const FIRST = firstRequest(era, 'start-allocations');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'start-allocations-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

/** owner -> bytes for one start of `script`, the compile cache off (each start compiles what it loads, as raw v2's does). */
function sample(script, i) {
  const out = path.join(dir, `${i}.json`);
  const env = { ...process.env, ALLOC_SAMPLER_OUT: out, ALLOC_SAMPLER_LIVE: live ? '1' : '0', TOOLWRIGHT_COMPILE_CACHE: 'off' };
  const run = spawnSync(node, ['-r', path.join(__dirname, 'alloc-sampler.js'), path.resolve(ROOT, script)], { cwd: ROOT, env, input: `${JSON.stringify(FIRST)}\n`, encoding: 'utf8' });
  if (run.status !== 0 || !run.stdout.includes('"result"')) throw new Error(`${script} (exit ${run.status}):\n${run.stdout.slice(0, 500)}\n${run.stderr.slice(-1500)}`);
  return JSON.parse(fs.readFileSync(out, 'utf8'));
}

const KiB = (bytes) => `${(bytes / 1024).toFixed(0)}`.padStart(8);
const results = scripts.map(sample);
const total = (r) => Object.values(r).reduce((a, b) => a + b, 0);
console.log(`start allocations (${live ? 'alive at exit' : 'all, garbage included'}), ${era} era, node ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()}; KiB`);
scripts.forEach((s, i) => console.log(`${KiB(total(results[i]))}  ${s}`));
for (let i = 1; i < scripts.length; i++) {
  const owners = new Set([...Object.keys(results[0]), ...Object.keys(results[i])]);
  const diff = [...owners].map((o) => [o, (results[i][o] ?? 0) - (results[0][o] ?? 0)]).sort((a, b) => b[1] - a[1]);
  console.log(`\n${scripts[i]} minus ${scripts[0]}: ${KiB(total(results[i]) - total(results[0])).trim()} KiB; largest owners (+ more, - less)`);
  for (const [owner, bytes] of diff.slice(0, rows)) console.log(`${KiB(bytes)}  ${owner}`);
}
