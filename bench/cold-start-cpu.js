#!/usr/bin/env node
// Cold start as work done, not wall time: each run spawns a stdio server whose input is the first
// request of an era (`initialize`, or 2026-07-28's `server/discover`) and then end of input, so it
// starts, answers and exits. Its CPU time (`perf stat -e task-clock`, all threads) or its instruction
// count (valgrind's callgrind, all threads; about 50 times slower) is what the start cost. On a
// machine busy with other work, wall time says more about the neighbours than about the server.
//   node bench/cold-start-cpu.js [--meter cpu|callgrind] [--era legacy|modern] [--runs 10] [--out dir] [--node <binary>] [-- <server script> ...]
// Without scripts it compares raw v2 (bench/raw-server-v2.js) with the weather example. The servers
// alternate, first one way then the other; the ratio is the median of the per-pair ratios. The first
// run of each server is a warm-up, not counted (it fills Node's compile cache where one is on).
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { serverArgs, firstRequest, nodeVersion, median, startOnce } = require('./startBench');

const ROOT = path.resolve(__dirname, '..');
const { flag, node, scripts } = serverArgs();
const meter = flag('meter', 'cpu');
const era = flag('era', 'legacy');
const runs = Number(flag('runs', 10));
// --out keeps each callgrind profile there (`<script>-<n>.callgrind`), for callgrind_annotate.
const out = flag('out', '');
let profiles = 0;
if (!['cpu', 'callgrind'].includes(meter) || !['legacy', 'modern'].includes(era)) throw new Error('usage: --meter cpu|callgrind --era legacy|modern');

const FIRST = firstRequest(era, 'cold-start');

// The servers' compile cache (`@toolwright/server/compile-cache`) in a directory of this run alone,
// filled by the warm-up start: no other process that loads the same files (the SDK's, say) can
// rewrite their entries mid-run, and a cache written outside valgrind is not read under it (V8
// sees other CPU features). The spread that remains between starts of one server is a major
// collection's marking that sometimes runs before the answer under valgrind: bench/start-gc.js says,
// natively and in seconds, whether a server's start schedules one (bench/README.md).
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cold-start-cache-'));
process.on('exit', () => fs.rmSync(cacheDir, { recursive: true, force: true }));

/** One start: resolves to the CPU milliseconds or the instructions it took. */
async function start(script) {
  const target = [node, path.resolve(ROOT, script)];
  const [cmd, ...args] =
    meter === 'cpu'
      ? ['perf', 'stat', '-x', ',', '-e', 'task-clock', ...target]
      : ['valgrind', '--tool=callgrind', `--callgrind-out-file=${out ? path.join(out, `${path.basename(script, '.js')}-${++profiles}.callgrind`) : '/dev/null'}`, ...target];
  const { stderr } = await startOnce(cmd, args, { root: ROOT, cacheDir, first: FIRST, label: script });
  const figure = meter === 'cpu' ? /^([\d.]+),msec,task-clock/m.exec(stderr) : /Collected : (\d+)/.exec(stderr);
  if (!figure) throw new Error(`${script}: no ${meter} figure in:\n${stderr.slice(-1500)}`);
  return Number(figure[1]);
}

(async () => {
  const version = await nodeVersion(node);
  for (const script of scripts) await start(script); // warm-up: fills the compile cache where one is on
  const samples = scripts.map(() => []);
  for (let run = 0; run < runs; run++) {
    const order = run % 2 ? [...scripts.keys()].reverse() : [...scripts.keys()];
    for (const i of order) samples[i].push(await start(scripts[i]));
  }
  const unit = meter === 'cpu' ? 'ms CPU' : 'instructions';
  console.log(`cold start, ${era} era, node ${version}, ${runs} runs each, ${unit} from spawn to exit after the first answer; medians`);
  scripts.forEach((s, i) => console.log(`${s.padEnd(36)} ${(meter === 'cpu' ? median(samples[i]).toFixed(1) : `${(median(samples[i]) / 1e6).toFixed(1)} M`).padStart(10)}`));
  for (let i = 1; i < scripts.length; i++) {
    const ratios = samples[i].map((x, k) => x / samples[0][k]);
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(`${scripts[i]} / ${scripts[0]}: ${median(ratios).toFixed(3)}x (pair ratios ${sorted[0].toFixed(2)} to ${sorted[sorted.length - 1].toFixed(2)})`);
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
