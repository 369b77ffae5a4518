#!/usr/bin/env node
'use strict';
// Scale case: decorate, build and list N tools, all in one class or spread over classes
// of 10 tools each. Reports wall time per phase and the cost per tool, so a build that is
// not linear in the number of members shows as a rising per-tool cost.
// Usage: npm run build && node bench/scale.js   (BENCH_SCALE_SIZES=10,100,1000,10000)

require('reflect-metadata');
const { Tool, Param, buildRegistry } = require('@toolwright/core');
const { createApp } = require('@toolwright/server');
const { createTestClient } = require('@toolwright/server/testing');

const SIZES = (process.env.BENCH_SCALE_SIZES || '10,100,1000,10000').split(',').map(Number);
const PER_CLASS = 10;
const TARGET_MS = 2000;
const ms = (from) => Number(process.hrtime.bigint() - from) / 1e6;

/** Declares `count` classes holding `n` tools between them, as tsc would emit the decorators. */
function declareTools(n, perClass) {
  const classes = [];
  for (let start = 0; start < n; start += perClass) {
    const cls = class {};
    Object.defineProperty(cls, 'name', { value: `Tools${start}` });
    for (let i = start; i < Math.min(n, start + perClass); i++) {
      const method = `tool${i}`;
      cls.prototype[method] = function (city, days) {
        return `${city}:${days}`;
      };
      Reflect.defineMetadata('design:paramtypes', [String, Number], cls.prototype, method);
      Param('city', { description: 'City name' })(cls.prototype, method, 0);
      Param('days', { optional: true })(cls.prototype, method, 1);
      Tool({ description: `Tool number ${i}.` })(cls.prototype, method, Object.getOwnPropertyDescriptor(cls.prototype, method));
    }
    classes.push(cls);
  }
  return classes;
}

async function measure(n, perClass) {
  let t = process.hrtime.bigint();
  const classes = declareTools(n, perClass);
  const decorate = ms(t);
  t = process.hrtime.bigint();
  const registry = buildRegistry({ tools: classes });
  const build = ms(t);
  if (registry.tools.length !== n) throw new Error(`built ${registry.tools.length} tools, expected ${n}`);
  t = process.hrtime.bigint();
  const app = await createApp({ name: 'scale', version: '0.0.0', tools: classes, logLevel: 'error' });
  const client = await createTestClient(app);
  const listed = await client.listTools();
  const serve = ms(t);
  if (listed.tools.length !== n) throw new Error(`listed ${listed.tools.length} tools, expected ${n}`);
  await client.close();
  return { decorate, build, serve };
}

async function main() {
  console.log('tools    layout        decorate ms  build ms  createApp+list ms  total ms  µs/tool   (total = decorate + createApp + tools/list)');
  let worst = 0;
  const builds = {};
  for (const n of SIZES) {
    for (const [layout, perClass] of [
      ['one class', n],
      [`${PER_CLASS}/class`, PER_CLASS],
    ]) {
      const { decorate, build, serve } = await measure(n, perClass);
      // createApp builds the registry itself: the separate build is shown, not counted twice.
      const total = decorate + serve;
      if (n === Math.max(...SIZES)) {
        worst = Math.max(worst, total);
        builds[perClass === n ? 'one' : 'spread'] = build;
      }
      const row = [
        String(n).padEnd(8),
        layout.padEnd(13),
        decorate.toFixed(1).padStart(11),
        build.toFixed(1).padStart(9),
        serve.toFixed(1).padStart(18),
        total.toFixed(1).padStart(9),
        ((total * 1000) / n).toFixed(0).padStart(8),
      ];
      console.log(row.join(' '));
    }
  }
  const largest = Math.max(...SIZES);
  console.log(`\n${largest} tools decorated, built and listed in at most ${worst.toFixed(0)} ms: ${worst < TARGET_MS ? 'PASS' : 'MISS'} (target < ${TARGET_MS} ms)`);
  // The build is linear in the members of a class (issue 13): quadratic reads made one class ~30x slower than the spread.
  const linear = builds.one < 4 * builds.spread + 200;
  console.log(
    `${largest} tools built in one class in ${builds.one.toFixed(0)} ms, over ${largest / PER_CLASS} classes in ${builds.spread.toFixed(0)} ms: ${linear ? 'PASS' : 'MISS'} (one class < 4x the spread + 200 ms)`,
  );
  if (process.env.BENCH_ASSERT === '1' && (worst >= TARGET_MS || !linear)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
