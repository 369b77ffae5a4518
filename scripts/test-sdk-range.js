#!/usr/bin/env node
'use strict';
// The MCP SDK packages are peer-dependency ranges of @toolwright/server (RELEASING.md). This runs
// a focused set of the server's end-to-end tests (in memory, stdio in-process, Streamable HTTP,
// both eras) against the lowest and the highest published version of every range:
//
//   node scripts/test-sdk-range.js                 both ends
//   node scripts/test-sdk-range.js lowest|highest  one end
//
// It builds nothing: for each end it npm-installs the SDK versions into a temporary folder and runs
// jest from source with scripts/jest/sdk-range-resolver.js, which resolves `@modelcontextprotocol/*`
// from that folder (every other module as the fast tests do). Needs the npm registry (or its cache).

const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const TESTS = [
  'packages/server/test/tools.e2e.test.ts', // in memory, 2025 era
  'packages/server/test/modern-surface.e2e.test.ts', // in memory, 2026-07-28 era
  'packages/server/test/stdio-terminal.test.ts', // stdio, in this process
  'packages/server/test/http.e2e.test.ts', // Streamable HTTP on port 0
  'packages/server/test/http-legacy.e2e.test.ts', // HTTP+SSE (2024-11-05) and the SDK transport
];
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const ends = process.argv.slice(2);
const unknown = ends.filter((e) => e !== 'lowest' && e !== 'highest');
if (unknown.length > 0) fail(`test-sdk-range: unknown argument ${unknown.join(', ')}; use lowest, highest or nothing (both).`);

const server = JSON.parse(fs.readFileSync(path.join(ROOT, 'packages/server/package.json'), 'utf8'));
const ranges = Object.entries(server.peerDependencies).filter(([name]) => name.startsWith('@modelcontextprotocol/'));
// The SDK v1 is no peer of the server: the tests use its client only as an independent reference
// (an old HTTP+SSE client, say), at the version the repository pins, at both ends.
const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const references = [['@modelcontextprotocol/sdk', root.devDependencies['@modelcontextprotocol/sdk']]];
const versionsOf = new Map(ranges.map(([name, range]) => [name, published(name, range)]));

const results = [];
for (const end of ends.length > 0 ? ends : ['lowest', 'highest']) {
  const pick = new Map([...ranges.map(([name]) => [name, end === 'lowest' ? versionsOf.get(name)[0] : versionsOf.get(name).at(-1)]), ...references]);
  const label = [...pick].map(([name, version]) => `${name.replace('@modelcontextprotocol/', '')}@${version}`).join(' ');
  console.log(`\ntest-sdk-range: ${end}: ${label}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `toolwright-sdk-${end}-`));
  try {
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'toolwright-sdk-range', private: true }));
    execFileSync(NPM, ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', '--loglevel=error', ...[...pick].map(([n, v]) => `${n}@${v}`)], { cwd: dir, stdio: 'inherit' });
    for (const [name, version] of pick) {
      const installed = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
      if (installed !== version) fail(`test-sdk-range: npm installed ${name}@${installed}, not ${version}.`);
    }
    const log = path.join(dir, 'resolved.log');
    const config = path.join(dir, 'jest.config.js');
    fs.writeFileSync(config, jestConfig());
    const jest = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--config', config, '--runInBand', '--ci', '--runTestsByPath', ...TESTS], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, TOOLWRIGHT_SDK_DIR: dir, TOOLWRIGHT_SDK_LOG: log },
    });
    const resolved = fs.existsSync(log)
      ? fs
          .readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((line) => line.split('\t'))
      : [];
    const outside = resolved.filter(([, file]) => !file.startsWith(dir + path.sep));
    if (resolved.length === 0) fail('test-sdk-range: the tests resolved no SDK module through the range resolver.');
    if (outside.length > 0) fail(`test-sdk-range: resolved outside the installed versions: ${outside.map((r) => r.join(' -> ')).join(', ')}`);
    results.push({ end, label, ok: jest.status === 0 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log('');
for (const r of results) console.log(`test-sdk-range: ${r.ok ? 'pass' : 'FAIL'} ${r.end}: ${r.label}`);
if (results.some((r) => !r.ok)) fail('test-sdk-range: the server fails on an SDK version its peer ranges allow; narrow the range in packages/server/package.json and RELEASING.md, or fix the server.');

/** The published versions of `name` that satisfy `range`, oldest first (no prereleases). */
function published(name, range) {
  const out = execFileSync(NPM, ['view', `${name}@${range}`, 'version', '--json'], { cwd: ROOT, encoding: 'utf8' });
  const parsed = JSON.parse(out);
  const list = (Array.isArray(parsed) ? parsed : [parsed]).filter((v) => !v.includes('-'));
  if (list.length === 0) fail(`test-sdk-range: no published version of ${name} satisfies ${range}.`);
  return list.sort(compare);
}

function compare(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

/** The repo's fast project (jest.config.js), with the range resolver. */
function jestConfig() {
  return [
    `const fast = require(${JSON.stringify(path.join(ROOT, 'jest.config.js'))}).projects.find((p) => p.displayName === 'fast');`,
    `module.exports = { ...fast, displayName: 'sdk-range', testTimeout: 30000, resolver: ${JSON.stringify(path.join(__dirname, 'jest', 'sdk-range-resolver.js'))} };`,
  ].join('\n');
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
