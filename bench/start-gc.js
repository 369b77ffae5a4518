#!/usr/bin/env node
// What the garbage collector does during a cold start, per server, natively (no valgrind): each run
// starts a stdio server with V8's GC traces, sends the first request of an era and end of input,
// and reads the traces up to the exit. Per server it reports the young-generation collections
// (scavenges) before the exit, V8's average survival ratio after the last one, and in how many starts
// V8 scheduled incremental marking. That marking is what spreads bench/cold-start-cpu.js's
// instruction counts: under valgrind it sometimes runs before the answer (bench/README.md, "Why a
// start schedules incremental marking").
//   node bench/start-gc.js [--era legacy|modern] [--runs 5] [--node <binary>] [-- <server script> ...]
// Without scripts it compares raw v2 (bench/raw-server-v2.js) with the weather example. The servers
// share a compile cache of this run, filled by a first start of each that is not counted.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { serverArgs, firstRequest, nodeVersion, median, startOnce } = require('./startBench');

const ROOT = path.resolve(__dirname, '..');
const { flag, node, scripts } = serverArgs();
const era = flag('era', 'legacy');
const runs = Number(flag('runs', 5));
if (!['legacy', 'modern'].includes(era) || !(runs > 0)) throw new Error('usage: --era legacy|modern --runs <n>');

const FIRST = firstRequest(era, 'start-gc');

const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'start-gc-cache-'));
process.on('exit', () => fs.rmSync(cacheDir, { recursive: true, force: true }));

/** One start: its scavenges (allocated bytes and V8's average survival ratio after each) and whether marking was scheduled. */
async function start(script) {
  const args = ['--trace-gc-nvp', '--trace-incremental-marking', path.resolve(ROOT, script)];
  const { stdout } = await startOnce(node, args, { root: ROOT, cacheDir, first: FIRST, label: script });
  const lines = stdout.split('\n');
  const scavenges = lines
    .filter((line) => / gc=s /.test(line))
    .map((line) => ({ allocated: Number(/ allocated=(\d+)/.exec(line)?.[1]), survival: Number(/ average_survival_ratio=([\d.]+)%/.exec(line)?.[1]) }));
  const marking = lines.some((line) => line.includes('[IncrementalMarking] Job: Schedule') || line.includes('[IncrementalMarking] Start'));
  const fullGcs = lines.filter((line) => / gc=(mc|mmc|ms) /.test(line)).length;
  return { scavenges, marking, fullGcs };
}

(async () => {
  const version = await nodeVersion(node);
  for (const script of scripts) await start(script); // fills the compile cache
  const samples = scripts.map(() => []);
  for (let run = 0; run < runs; run++) {
    const order = run % 2 ? [...scripts.keys()].reverse() : [...scripts.keys()];
    for (const i of order) samples[i].push(await start(scripts[i]));
  }
  console.log(`cold start GC, ${era} era, node ${version}, ${runs} starts each; medians`);
  console.log(`${'server'.padEnd(48)}${'scavenges'.padStart(10)}${'survival %'.padStart(12)}${'MB allocated'.padStart(14)}${'marking'.padStart(10)}${'full GCs'.padStart(10)}`);
  scripts.forEach((s, i) => {
    const r = samples[i];
    const last = (x) => x.scavenges.at(-1)?.survival ?? 100;
    const allocated = (x) => x.scavenges.reduce((n, g) => n + g.allocated, 0) / 1048576;
    console.log(
      `${s.slice(-47).padEnd(48)}${String(median(r.map((x) => x.scavenges.length))).padStart(10)}${median(r.map(last)).toFixed(1).padStart(12)}${median(r.map(allocated)).toFixed(1).padStart(14)}${`${r.filter((x) => x.marking).length}/${r.length}`.padStart(10)}${String(median(r.map((x) => x.fullGcs))).padStart(10)}`,
    );
  });
  console.log(
    "survival %: V8's average survival ratio after the last scavenge (the initial old-generation limit shrinks by it at each one); MB allocated: up to the last scavenge; marking: starts in which incremental marking was scheduled.",
  );
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
