#!/usr/bin/env node
'use strict';
// Some peer dependencies are ranges that span releases the lockfile does not hold (RELEASING.md).
// For a family of them, this runs the end-to-end tests of the package that declares the range
// against the lowest and the highest published version of every range of the family:
//
//   node scripts/test-peer-range.js sdk                 the MCP SDK packages (@toolwright/server), both ends
//   node scripts/test-peer-range.js nest lowest|highest NestJS (@toolwright/nestjs), one end
//   node scripts/test-peer-range.js express|fastify|hono|next   a framework adapter's framework, both ends
//   node scripts/test-peer-range.js eslint              ESLint and typescript-eslint (@toolwright/eslint-plugin), both ends
//   node scripts/test-peer-range.js express --skip-locked   skips an end whose versions are the ones the
//                                                        lockfile installs (`npm test` passes it: its jest run
//                                                        has just run these files on them)
//
// It builds nothing: for each end it npm-installs those versions into a temporary folder and runs
// jest from source with scripts/jest/peer-range-resolver.js, which resolves the family's modules
// from that folder (every other module as the fast tests do). A release published as ES modules only
// (Nest 12) is loaded as users load it from CommonJS, through `require(esm)`, which jest does on
// Node 24.9+ with --experimental-vm-modules: those ends run jest on the pinned Node 24. A package
// that ships a CommonJS build beside its ES modules (the MCP SDK, hono) is loaded as that build, as
// `require` loads it, on this Node.
// Needs the npm registry (or its cache).

const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { nodeBinary } = require('./nodeVersions');

const ROOT = path.resolve(__dirname, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const rootPackage = readJson(path.join(ROOT, 'package.json'));

/**
 * Each family: the package whose peer ranges it tests, the module names those ranges cover (and
 * what else resolves from the installed folder, so that each is loaded once), the test files,
 * references installed at one version at both ends, and companions installed at the version
 * picked for one of the peers (packages released together with it).
 */
const FAMILIES = {
  sdk: {
    package: 'packages/server',
    peers: (name) => name.startsWith('@modelcontextprotocol/'),
    resolves: ['@modelcontextprotocol/'],
    tests: [
      'packages/server/test/tools.e2e.test.ts', // in memory, 2025 era
      'packages/server/test/modern-surface.e2e.test.ts', // in memory, 2026-07-28 era
      'packages/server/test/stdio-terminal.test.ts', // stdio, in this process
      'packages/server/test/http.e2e.test.ts', // Streamable HTTP on port 0
      'packages/server/test/http-legacy.e2e.test.ts', // HTTP+SSE (2024-11-05) and the SDK transport
    ],
    // The SDK v1 is no peer of the server: the tests use its client only as an independent reference
    // (an old HTTP+SSE client, say), at the version the repository pins, at both ends.
    references: [['@modelcontextprotocol/sdk', rootPackage.devDependencies['@modelcontextprotocol/sdk']]],
  },
  nest: {
    package: 'packages/nestjs',
    peers: (name) => name.startsWith('@nestjs/'),
    // rxjs too: Nest's observables and the tests' interceptors then share one copy.
    resolves: ['@nestjs/', 'rxjs'],
    tests: [
      'packages/nestjs/test/nestjs.e2e.test.ts', // Express platform, forRoot and forRootAsync, OAuth
      'packages/nestjs/test/nestjs-fastify.e2e.test.ts', // Fastify platform
      'packages/nestjs/test/nestjs-global-guards.e2e.test.ts', // the app's global guards on the endpoint
      'packages/nestjs/test/nestjs-callers.e2e.test.ts',
      'packages/nestjs/test/nestjs-hostile.e2e.test.ts', // hostile input on both platforms
    ],
    references: [['rxjs', readJson(path.join(ROOT, 'packages/nestjs/package.json')).devDependencies.rxjs]],
  },
  express: {
    package: 'packages/express',
    // @types/express is a peer too, but jest only transpiles: the repository's type check covers the types.
    peers: (name) => name === 'express',
    resolves: ['express'],
    tests: [
      'packages/express/test/express.e2e.test.ts', // the middleware in an Express app on port 0, both eras
      'packages/express/test/express-hostile.e2e.test.ts', // hostile input, bodies other middleware parsed
    ],
    references: [],
  },
  fastify: {
    package: 'packages/fastify',
    // The tests load no @fastify/* plugin; fastify's own dependencies resolve inside the installed folder.
    peers: (name) => name === 'fastify',
    resolves: ['fastify'],
    tests: [
      'packages/fastify/test/fastify.e2e.test.ts', // the plugin on port 0, both eras, the authorization server's routes
      'packages/fastify/test/fastify-hostile.e2e.test.ts', // hostile input, fastify's own body parsers
    ],
    references: [],
  },
  hono: {
    package: 'packages/hono',
    peers: (name) => name === 'hono',
    // @hono/node-server serves the Hono app on port 0 and loads hono itself: it resolves from the installed
    // folder too, so that both use one copy of hono.
    resolves: ['hono', '@hono/node-server'],
    tests: [
      'packages/hono/test/hono.e2e.test.ts', // the middleware in a Hono app on Node, both eras
      'packages/hono/test/hono-hostile.e2e.test.ts', // hostile input
    ],
    references: [['@hono/node-server', readJson(path.join(ROOT, 'packages/hono/package.json')).devDependencies['@hono/node-server']]],
  },
  next: {
    package: 'packages/next',
    peers: (name) => name === 'next',
    // The tests render nothing; react and react-dom (next's peers, which npm installs beside it) resolve from the
    // folder all the same, so that a test that did would load one copy.
    resolves: ['next', 'react', 'react-dom'],
    // The route handlers called with next's own NextRequest. packages/next/test/next.e2e.test.ts is left out: it
    // builds the fixture app with `next build` and serves it with `next start` in processes, on the built packages.
    tests: ['packages/next/test/route-handlers.test.ts'],
    references: [],
  },
  eslint: {
    package: 'packages/eslint-plugin',
    // typescript is a peer too, but the repository builds and tests with one TypeScript (RELEASING.md).
    peers: (name) => name === 'eslint' || name === 'typescript-eslint',
    // The plugin's own @typescript-eslint/utils (a dependency, not a peer) resolves as in a user's project: the
    // plugin's copy from the workspace, typescript-eslint's from the folder. The rule tester is typescript-eslint's
    // release at the same version, so that the rule tests parse with that end's parser; typescript resolves from
    // the folder at the workspace's version, so that the plugin and the parser share one copy.
    resolves: ['eslint', 'typescript-eslint', '@typescript-eslint/rule-tester', 'typescript'],
    tests: [
      'packages/eslint-plugin/test/rules.test.ts', // every rule through typescript-eslint's rule tester, type-aware
      'packages/eslint-plugin/test/recommended.test.ts', // the recommended flat config through ESLint's own ESLint class
      'packages/eslint-plugin/test/paramTypeVerdicts.test.ts', // the rule's verdicts agree with the build's
    ],
    references: [['typescript', readJson(path.join(ROOT, 'node_modules', 'typescript', 'package.json')).version]],
    companions: [['@typescript-eslint/rule-tester', 'typescript-eslint']],
  },
};

const [familyName, ...args] = process.argv.slice(2);
// Looked up as an own property: `constructor` or `toString` on the command line names no family.
const family = Object.hasOwn(FAMILIES, familyName ?? '') ? FAMILIES[familyName] : undefined;
if (!family) fail(`test-peer-range: name a family first: ${Object.keys(FAMILIES).join(' or ')}.`);
const skipLocked = args.includes('--skip-locked');
const ends = args.filter((a) => a !== '--skip-locked');
const unknown = ends.filter((e) => e !== 'lowest' && e !== 'highest');
if (unknown.length > 0) fail(`test-peer-range: unknown argument ${unknown.join(', ')}; use lowest, highest or nothing (both), and --skip-locked.`);

const declaring = readJson(path.join(ROOT, family.package, 'package.json'));
const ranges = Object.entries(declaring.peerDependencies).filter(([name]) => family.peers(name));
if (ranges.length === 0) fail(`test-peer-range: ${family.package}/package.json has no peer dependency of the ${familyName} family.`);
const versionsOf = new Map(ranges.map(([name, range]) => [name, published(name, range)]));

const results = [];
for (const end of ends.length > 0 ? ends : ['lowest', 'highest']) {
  const pick = new Map([...ranges.map(([name]) => [name, end === 'lowest' ? versionsOf.get(name)[0] : versionsOf.get(name).at(-1)]), ...family.references]);
  for (const [name, peer] of family.companions ?? []) pick.set(name, pick.get(peer));
  const label = [...pick].map(([name, version]) => `${name}@${version}`).join(' ');
  if (skipLocked && [...pick].every(([name, version]) => lockedVersion(name) === version)) {
    console.log(`\ntest-peer-range: ${familyName} ${end}: ${label}: skipped, the lockfile installs these versions (jest ran on them)`);
    results.push({ end, label, ok: true, skipped: true });
    continue;
  }
  console.log(`\ntest-peer-range: ${familyName} ${end}: ${label}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `toolwright-${familyName}-${end}-`));
  try {
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `toolwright-${familyName}-range`, private: true }));
    execFileSync(NPM, ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', '--loglevel=error', ...[...pick].map(([n, v]) => `${n}@${v}`)], { cwd: dir, stdio: 'inherit' });
    for (const [name, version] of pick) {
      const installed = readJson(path.join(dir, 'node_modules', name, 'package.json')).version;
      if (installed !== version) fail(`test-peer-range: npm installed ${name}@${installed}, not ${version}.`);
    }
    // ES modules only: loaded through require(esm), which jest supports on Node 24.9+ with vm modules.
    const esmOnly = ranges.some(([name]) => requiresAnEsModule(dir, name));
    const node = esmOnly ? nodeBinary(24) : process.execPath;
    const log = path.join(dir, 'resolved.log');
    const config = path.join(dir, 'jest.config.js');
    fs.writeFileSync(config, jestConfig(familyName));
    const jest = spawnSync(
      node,
      [
        ...(esmOnly ? ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning'] : []),
        require.resolve('jest/bin/jest'),
        '--config',
        config,
        '--runInBand',
        '--ci',
        '--runTestsByPath',
        ...family.tests,
      ],
      {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, TOOLWRIGHT_RANGE_DIR: dir, TOOLWRIGHT_RANGE_MODULES: family.resolves.join(','), TOOLWRIGHT_RANGE_LOG: log },
      },
    );
    const resolved = fs.existsSync(log)
      ? fs
          .readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((line) => line.split('\t'))
      : [];
    const outside = resolved.filter(([, file]) => !file.startsWith(dir + path.sep));
    if (resolved.length === 0) fail(`test-peer-range: the tests resolved no module of the ${familyName} family through the range resolver.`);
    if (outside.length > 0) fail(`test-peer-range: resolved outside the installed versions: ${outside.map((r) => r.join(' -> ')).join(', ')}`);
    results.push({ end, label, ok: jest.status === 0 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log('');
for (const r of results) console.log(`test-peer-range: ${r.skipped ? 'skipped (locked)' : r.ok ? 'pass' : 'FAIL'} ${familyName} ${r.end}: ${r.label}`);
if (results.some((r) => !r.ok)) {
  fail(`test-peer-range: ${declaring.name} fails on a version its peer ranges allow; narrow the range in ${family.package}/package.json and RELEASING.md, or fix the package.`);
}

/** The published versions of `name` that satisfy `range`, oldest first (no prereleases). */
function published(name, range) {
  const out = execFileSync(NPM, ['view', `${name}@${range}`, 'version', '--json'], { cwd: ROOT, encoding: 'utf8' });
  const parsed = JSON.parse(out);
  const list = (Array.isArray(parsed) ? parsed : [parsed]).filter((v) => !v.includes('-'));
  if (list.length === 0) fail(`test-peer-range: no published version of ${name} satisfies ${range}.`);
  return list.sort(compare);
}

function compare(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

/** The repo's fast project (jest.config.js), with the range resolver, taking any test file it is given. */
function jestConfig(name) {
  return [
    `const fast = require(${JSON.stringify(path.join(ROOT, 'jest.config.js'))}).projects.find((p) => p.displayName === 'fast');`,
    `module.exports = { ...fast, displayName: ${JSON.stringify(`${name}-range`)}, testMatch: ['**/test/**/*.test.ts'], testTimeout: 30000, resolver: ${JSON.stringify(path.join(__dirname, 'jest', 'peer-range-resolver.js'))} };`,
  ].join('\n');
}

/**
 * Whether `require(name)` from `dir` loads an ES module: the package has no CommonJS entry point
 * (its exports offer none to `require`, or the file they give is `.mjs` or under `"type": "module"`).
 */
function requiresAnEsModule(dir, name) {
  let file;
  try {
    file = require.resolve(name, { paths: [dir] });
  } catch {
    return true;
  }
  if (file.endsWith('.mjs')) return true;
  if (file.endsWith('.cjs')) return false;
  const root = fs.realpathSync(dir);
  for (let folder = path.dirname(file); folder.startsWith(root); folder = path.dirname(folder)) {
    const manifest = path.join(folder, 'package.json');
    if (fs.existsSync(manifest)) return readJson(manifest).type === 'module';
  }
  return false;
}

/** The version of `name` the workspace's install holds for the family's package (the nearest node_modules), or undefined. */
function lockedVersion(name) {
  for (const dir of [family.package, '.']) {
    const file = path.join(ROOT, dir, 'node_modules', name, 'package.json');
    if (fs.existsSync(file)) return readJson(file).version;
  }
  return undefined;
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
