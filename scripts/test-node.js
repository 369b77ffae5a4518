#!/usr/bin/env node
'use strict';
// Runs the jest suite on other Node.js versions without touching the machine's Node:
//
//   node scripts/test-node.js <major>... [--project=<template>] [--version-sensitive] [jest arguments]
//   npm run test:node -- 24                    (builds first; the build is version-independent)
//   npm run test:node -- 22 24 packages/server  (one version after the other, jest filters apply)
//
// Each version runs jest's own entry point with that node binary, with the binary's folder
// first on PATH, so what the tests spawn (servers, the CLI, npm and what it runs) runs on it
// too. `--project=<template>` then generates that template against this checkout
// (`toolwright new --local`), installs it and runs its `npm test` on the same version.
// `--version-sensitive` runs only the suites that lean on the runtime (scripts/versionSensitiveSuites.js):
// `npm run test:nodes` uses it, since the machine's Node already ran every suite.
// Exits non-zero when anything fails on any version.

const { existsSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { spawnSync } = require('node:child_process');
const { delimiter, dirname, join, relative } = require('node:path');
const { nodeBinary } = require('./nodeVersions.js');
const { SUITES } = require('./versionSensitiveSuites.js');

const ROOT = join(__dirname, '..');
const JEST = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const CLI = join(ROOT, 'packages', 'cli', 'dist', 'bin.js');
const BUILT = ['packages/cli/dist/bin.js', 'packages/server/bundle/all.js', 'examples/minimal/dist/server.js'];

function main(argv) {
  const majors = [];
  while (/^\d+$/.test(argv[0] ?? '')) majors.push(argv.shift());
  if (majors.length === 0) return fail('usage: node scripts/test-node.js <major>... [--project=<template>] [--version-sensitive] [jest arguments], e.g. npm run test:node -- 24');
  const projectFlag = argv.find((a) => a.startsWith('--project='));
  const project = projectFlag?.slice('--project='.length);
  const versionSensitive = argv.includes('--version-sensitive');
  const jestArgs = [...argv.filter((a) => a !== projectFlag && a !== '--version-sensitive'), ...(versionSensitive ? SUITES : [])];
  const unbuilt = BUILT.filter((file) => !existsSync(join(ROOT, file)));
  if (unbuilt.length > 0) return fail(`${unbuilt.join(', ')} missing: run \`npm run build\` first (once; the build is the same for every Node.js version)`);

  const results = [];
  const tmp = mkdtempSync(join(tmpdir(), 'toolwright-test-node-'));
  try {
    for (const major of majors) runOn(major, jestArgs, project, tmp, results);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.error(`\ntest:node: ${results.map((r) => `${r.what} on Node.js ${r.version} ${r.ok ? 'passed' : `FAILED (${r.how})`}`).join('; ')}`);
  return results.every((r) => r.ok) ? 0 : 1;
}

/** Runs jest, then the project's tests if asked, on one Node.js version; pushes one result per step. */
function runOn(major, jestArgs, project, tmp, results) {
  const node = nodeBinary(major);
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`, npm_node_execpath: node };
  const version = spawnSync('node', ['-p', 'process.versions.node'], { env, encoding: 'utf8' }).stdout?.trim();
  const own = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim();
  if (!version || version !== own) throw new Error(`\`node\` on the tests' PATH is ${version || 'missing'}, not ${own} (${node})`);
  const step = (what, command, args, cwd) => {
    console.error(`\ntest:node: ${what} on Node.js ${version} (${relative(ROOT, node) || node})\n`);
    const { status, signal } = spawnSync(command, args, { cwd, env, stdio: 'inherit' });
    results.push({ what, version, ok: status === 0, how: signal ?? `exit ${status}` });
    return status === 0;
  };
  step('jest', node, [JEST, ...jestArgs], ROOT);
  if (project === undefined) return;
  // One pack folder for every version: the checkout is packed once.
  const dir = join(tmp, `${project}-node${major}`);
  if (!step(`toolwright new --template ${project}`, 'node', [CLI, 'new', dir, '--template', project, '--local', '--pack-dir', join(tmp, 'packs')], tmp)) return;
  if (!step(`npm install (${project} project)`, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], dir)) return;
  step(`npm test (${project} project)`, 'npm', ['test'], dir);
}

function fail(message) {
  console.error(`test:node: ${message}`);
  return 2;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  process.exitCode = fail(error.message);
}
