#!/usr/bin/env node
'use strict';
// The edge example pins workerd (through miniflare and wrangler) and a compatibility date, but a Worker
// deployed today runs on Cloudflare's current runtime. This runs the example's workerd end-to-end tests
// (examples/edge/test/runtimes.e2e.test.ts, its workerd rows: the Worker through `wrangler dev` and
// Miniflare, bearer JWTs, the Hono Worker; both MCP eras) on the newest workerd the npm registry has,
// twice: at the compatibility date the example pins, and at the newest date that binary supports
// (today's at most). With --conformance, the official conformance suite's 2026-07-28 run against the
// conformance example as a Worker follows at both dates too.
//
//   node scripts/test-workerd-latest.js [version] [--conformance]     version: a workerd release (default: latest)
//
// It builds nothing (run `npm run build` first). workerd is installed into a temporary folder; Miniflare,
// the one inside wrangler too, starts the binary MINIFLARE_WORKERD_PATH names, and the example's serve
// scripts and its wrangler row take the date from COMPATIBILITY_DATE. Needs the npm registry (or its cache).

const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const EDGE_TEST = 'examples/edge/test/runtimes.e2e.test.ts';

const args = process.argv.slice(2);
const conformance = args.includes('--conformance');
const rest = args.filter((a) => a !== '--conformance');
if (rest.some((a) => a.startsWith('-')) || rest.length > 1) fail(`test-workerd-latest: unknown argument ${rest.join(' ')}; give a workerd version, --conformance, or nothing.`);
const version = rest[0] ?? execFileSync(NPM, ['view', 'workerd', 'version'], { cwd: ROOT, encoding: 'utf8' }).trim();

const pinnedDate = /^compatibility_date = "(\d{4}-\d{2}-\d{2})"$/m.exec(fs.readFileSync(path.join(ROOT, 'examples/edge/wrangler.toml'), 'utf8'))?.[1];
if (!pinnedDate) fail('test-workerd-latest: examples/edge/wrangler.toml has no line `compatibility_date = "YYYY-MM-DD"`.');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-workerd-'));
const results = [];
try {
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'toolwright-workerd-latest', private: true }));
  // No install scripts: the binary comes in the platform's optional package (@cloudflare/workerd-<os>-<arch>).
  execFileSync(NPM, ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', '--loglevel=error', `workerd@${version}`], { cwd: dir, stdio: 'inherit' });
  const workerd = require(path.join(dir, 'node_modules', 'workerd'));
  if (workerd.version !== version) fail(`test-workerd-latest: npm installed workerd@${workerd.version}, not ${version}.`);
  const binary = workerd.default;
  if (!fs.existsSync(binary)) fail(`test-workerd-latest: workerd@${version} has no binary for ${process.platform}-${process.arch} (looked for ${binary}).`);
  console.log(`test-workerd-latest: ${execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim()} (workerd@${version}), ${binary}`);

  // The newest date the binary supports, unless that is after today (Cloudflare refuses future dates).
  const today = new Date().toISOString().slice(0, 10);
  const dates = [...new Set([pinnedDate, workerd.compatibilityDate < today ? workerd.compatibilityDate : today])];
  for (const date of dates) {
    const env = { ...process.env, MINIFLARE_WORKERD_PATH: binary, COMPATIBILITY_DATE: date };
    const label = `workerd@${version}, compatibility date ${date}`;
    console.log(`\ntest-workerd-latest: the edge example's workerd rows, ${label}`);
    const report = path.join(dir, `jest-${date}.json`);
    const jest = spawnSync(
      process.execPath,
      [require.resolve('jest/bin/jest'), '--selectProjects', 'slow', '--runInBand', '--ci', '--runTestsByPath', EDGE_TEST, '-t', 'workerd', '--json', '--outputFile', report],
      { cwd: ROOT, stdio: 'inherit', env },
    );
    // A filter that matched nothing would pass: count the tests that ran.
    const ran = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')).numPassedTests : 0;
    results.push({ label: `edge example, ${label}: ${ran} tests passed`, ok: jest.status === 0 && ran > 0 });
    if (conformance) {
      console.log(`\ntest-workerd-latest: the conformance Worker, ${label}`);
      const run = spawnSync(process.execPath, [path.join(ROOT, 'examples/conformance/scripts/run-conformance.js'), 'workerd'], { cwd: ROOT, stdio: 'inherit', env });
      results.push({ label: `conformance Worker, ${label}`, ok: run.status === 0 });
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

console.log('');
for (const r of results) console.log(`test-workerd-latest: ${r.ok ? 'pass' : 'FAIL'} ${r.label}`);
if (results.some((r) => !r.ok)) {
  fail(
    'test-workerd-latest: the Worker fails on the newest workerd; read the failures above, fix the product (or the example), and raise the pinned miniflare/wrangler and compatibility date once it passes.',
  );
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
