#!/usr/bin/env node
'use strict';
// bench/raw-server-v2.js with Node's compile cache on (Node 22.1 and later), as the weather example
// has it through `@toolwright/server/compile-cache`: the like-for-like baseline for start and memory
// figures, since the cache changes both for any server (bench/README.md, "The compile cache").
// The cache goes where TOOLWRIGHT_COMPILE_CACHE points, so bench/cold-start-cpu.js gives both
// servers the same directory of its run; without it, Node's default (NODE_COMPILE_CACHE or the
// system's temporary directory).
const { enableCompileCache } = require('node:module');
const directory = process.env.TOOLWRIGHT_COMPILE_CACHE;
if (directory === 'off' || directory === '0') throw new Error('raw-server-v2-cached.js: TOOLWRIGHT_COMPILE_CACHE is off; run bench/raw-server-v2.js instead.');
enableCompileCache?.(directory || undefined);
require('./raw-server-v2.js');
