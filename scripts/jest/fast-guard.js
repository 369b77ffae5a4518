'use strict';
// Jest setup for the `fast` project (jest.config.js): a fast test runs in jest's own process.
// Starting a child process (node on a fixture or on dist/, npm, git, redis-server, a browser)
// fails the test file with the way out, even when the code under test catches the error.
const childProcess = require('node:child_process');
const { relative } = require('node:path');

const ROOT = require('node:path').join(__dirname, '..', '..');
const SPAWNERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'];
const started = [];

const testFile = () => relative(ROOT, expect.getState().testPath ?? 'this test file');
const refusal = (command) =>
  new Error(
    `${testFile()} is a fast test, and fast tests start no process (it ran \`${command}\`). ` +
      'Serve the app in memory (createTestClient) or on port 0 in this process; ' +
      'or, when the test is about a process, the build, Redis or a download, add the file to SLOW in jest.config.js.',
  );

// The module is shared by every test file a jest worker runs (slow ones too): patched for
// this file, restored after it.
const originals = SPAWNERS.map((name) => [name, childProcess[name].unguarded ?? childProcess[name]]);
for (const [name, original] of originals) {
  const guarded = (command, args) => {
    const line = [command, ...(Array.isArray(args) ? args : [])].join(' ');
    started.push(line);
    throw refusal(line);
  };
  guarded.unguarded = original;
  childProcess[name] = guarded;
}

afterAll(() => {
  for (const [name, original] of originals) childProcess[name] = original;
  if (started.length > 0) throw refusal(started[0]);
});
