#!/usr/bin/env node
'use strict';
// Committed rather than built, so that npm links `toolwright` into node_modules/.bin at
// install time, before `npm run build` has written dist/. It only loads the built CLI.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '..', 'dist', 'bin.js');
if (!existsSync(cli)) {
  console.error(`toolwright: ${cli} is missing: this checkout is not built yet. Run 'npm run build' at the repository root, then try again.`);
  process.exit(2);
}
require(cli);
