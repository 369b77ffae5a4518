#!/usr/bin/env node
'use strict';
// `npm run test:no-fast-paths`: the server's in-process suites with every message on the SDK's path
// (TOOLWRIGHT_FAST_PATHS=off), all but the fast-paths.* suites, which set the switch both ways themselves.
//
//   node scripts/test-no-fast-paths.js [--recorded <file>] [jest arguments]
//
// With --recorded, only the suites listed in <file> run: those in which a fast path answered a call
// during a jest run with TOOLWRIGHT_RECORD_FAST_PATH_SUITES=<file> (scripts/jest/record-fast-path-suites.js),
// as `npm test` does. In any other suite every message took the SDK's path in that run already.

const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const SUITES = 'packages/server/test';

function suitesToRun(args) {
  const at = args.indexOf('--recorded');
  if (at === -1) return { suites: [SUITES], rest: args };
  const file = args[at + 1];
  const rest = [...args.slice(0, at), ...args.slice(at + 2)];
  if (!file || !existsSync(file)) {
    throw new Error(
      `test-no-fast-paths: --recorded ${file ?? '(no file)'}: no such file. Run jest with TOOLWRIGHT_RECORD_FAST_PATH_SUITES=<file> first (npm test does), or leave --recorded out to run every server suite.`,
    );
  }
  const recorded = [...new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean))].filter((path) => existsSync(join(ROOT, path)) && !/\/fast-paths\./.test(path));
  if (recorded.length === 0) {
    throw new Error(
      `test-no-fast-paths: ${file} lists no suite in which a fast path answered. Either the fast paths answer nothing any more, or scripts/jest/record-fast-path-suites.js no longer sees them: check it before trusting this run.`,
    );
  }
  console.error(`test-no-fast-paths: ${recorded.length} server suites in which a fast path answered a call (${file}), run again with fast paths off`);
  return { suites: recorded.sort().map((path) => `${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`), rest };
}

function main(args) {
  const { suites, rest } = suitesToRun(args);
  const jest = require.resolve('jest/bin/jest', { paths: [ROOT] });
  const argv = [jest, '--selectProjects', 'fast', 'thorough', '--maxWorkers', '2', ...suites, '--testPathIgnorePatterns', 'fast-paths', ...rest];
  const env = { ...process.env, TOOLWRIGHT_FAST_PATHS: 'off', FUZZ_MESSAGES: process.env.FUZZ_MESSAGES ?? '2000', FUZZ_SCALE: process.env.FUZZ_SCALE ?? '0.2' };
  delete env.TOOLWRIGHT_RECORD_FAST_PATH_SUITES;
  return spawnSync(process.execPath, argv, { cwd: ROOT, stdio: 'inherit', env }).status ?? 1;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exitCode = 2;
}
