'use strict';
// Preload (`node -r ./bench/unbundled.js <server>`): resolves @toolwright/* to tsc's per-file
// output in dist/ instead of the bundles, to measure what the bundles change, e.g.
//   BENCH_RAW_CMD="node -r ./bench/unbundled.js examples/weather/dist/server.js" node bench/run.js
const Module = require('node:module');
const path = require('node:path');

const packages = path.resolve(__dirname, '..', 'packages');
const DIST = {
  '@toolwright/core': 'core/dist/index.js',
  '@toolwright/core/dto': 'core/dist/dto/index.js',
  '@toolwright/server': 'server/dist/index.js',
  '@toolwright/server/stdio': 'server/dist/stdio/index.js',
  '@toolwright/server/testing': 'server/dist/testing/index.js',
  '@toolwright/server/http': 'server/dist/http/index.js',
  '@toolwright/server/auth': 'server/dist/auth/index.js',
  '@toolwright/server/middleware': 'server/dist/middleware/index.js',
};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return Object.hasOwn(DIST, request) ? path.join(packages, DIST[request]) : resolve.call(this, request, ...rest);
};
