'use strict';
// Jest setup for the `slow` project (jest.config.js): a worker may have run a fast test file
// before this one; undo its guard (scripts/jest/fast-guard.js) should its afterAll not have run.
const childProcess = require('node:child_process');

for (const name of Object.keys(childProcess)) {
  if (typeof childProcess[name] === 'function' && childProcess[name].unguarded) childProcess[name] = childProcess[name].unguarded;
}
