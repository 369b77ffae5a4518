#!/usr/bin/env node
// `npm test` runs this first: it says, before minutes of tests, what the run needs that npm
// does not install, and how to get it. Every check is mandatory (in CI too): a missing
// prerequisite fails here at once rather than at the end of the run.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const problems = [];

// The supported range, engines.node of every package.json (packages/cli/src/cli/supportedNode.ts).
const [major, minor] = process.versions.node.split('.').map(Number);
if (!(major >= 24 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19))) {
  problems.push(`Node ${process.versions.node}: the repository needs Node ${require('../package.json').engines.node} (https://nodejs.org, or nvm install 24).`);
}

// The docs render check (docs/scripts/check-render.mjs) drives Debian's Chromium; no browser is downloaded.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  problems.push(
    `No Chromium at ${chromium}: the docs render check needs it. On Debian or Ubuntu: 'sudo apt-get install -y chromium' (.ci/run does this); elsewhere, set CHROMIUM_PATH to a Chromium or Chrome binary.`,
  );
}

// The @toolwright/redis and examples/scale-out tests start Debian's redis-server themselves (free port, temporary directory).
const redisOnPath = (process.env.PATH ?? '').split(require('node:path').delimiter).some((dir) => dir && existsSync(join(dir, 'redis-server')));
if (!redisOnPath) {
  problems.push(`No redis-server on PATH: the Redis tests need it. On Debian or Ubuntu: 'sudo apt-get install -y redis-server' (.ci/run does this); elsewhere, install Redis 7.`);
}

if (problems.length > 0) {
  console.error(`npm test cannot run on this machine yet:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}

const suite = join(root, 'examples', 'conformance', 'suite', 'node_modules');
if (!existsSync(suite)) {
  console.error('Note: this first run installs the MCP conformance suite and the Node 22 it needs (about 240 MB, from the npm registry) into examples/conformance/suite; later runs reuse them.');
}
if (!existsSync(join(root, 'scripts', 'node-versions', 'node_modules'))) {
  console.error(
    'Note: this first run installs Node 22, 24 and 26 (about 580 MB, from the npm registry) into scripts/node-versions, to run the tests on them too (npm run test:nodes); later runs reuse them.',
  );
}
