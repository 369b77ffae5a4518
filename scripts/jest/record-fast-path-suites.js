'use strict';
// Jest setup for the in-process projects (jest.config.js). With TOOLWRIGHT_RECORD_FAST_PATH_SUITES
// set to a file (`npm test` sets it for its jest run), a server suite in which a fast path answered a
// call adds its path to that file. `npm run test:no-fast-paths -- --recorded <file>` then runs those
// suites again with fast paths off: in the others every message took the SDK's path already, so a second
// run would repeat the first (scripts/test-no-fast-paths.js). Unset, this file does nothing.
const { appendFileSync, mkdirSync } = require('node:fs');
const { dirname, join, relative, resolve, sep } = require('node:path');

const record = process.env.TOOLWRIGHT_RECORD_FAST_PATH_SUITES;
const ROOT = join(__dirname, '..', '..');
const testPath = expect.getState().testPath ?? '';

if (record && relative(ROOT, testPath).startsWith(['packages', 'server', 'test', ''].join(sep))) {
  // The one place fast paths are made (createApp calls it through the module's exports, this file's module registry's copy).
  const lanes = require('../../packages/server/src/lanes/FastPaths');
  const make = lanes.createFastPaths;
  let answered = 0;
  lanes.createFastPaths = (direct) =>
    make((...args) => {
      const answer = direct(...args);
      if (answer) answered++;
      return answer;
    });
  afterAll(() => {
    lanes.createFastPaths = make;
    if (answered === 0) return;
    mkdirSync(dirname(resolve(record)), { recursive: true });
    appendFileSync(resolve(record), `${relative(ROOT, testPath).split(sep).join('/')}\n`);
  });
}
