'use strict';
// Jest resolver for scripts/test-sdk-range.js: the fast project's resolver, except that the MCP SDK
// packages (`@modelcontextprotocol/*`, every entry point) resolve from TOOLWRIGHT_SDK_DIR, a
// temporary folder where the script installed the lowest or highest SDK versions of the supported
// ranges. The SDK's own imports then resolve inside that folder too: one copy of each version.
// Each SDK file it resolves is appended to TOOLWRIGHT_SDK_LOG, for the script to check.
const { appendFileSync } = require('node:fs');
const fastResolver = require('./fast-resolver');

const SDK_DIR = process.env.TOOLWRIGHT_SDK_DIR;
const LOG = process.env.TOOLWRIGHT_SDK_LOG;
if (!SDK_DIR) throw new Error('sdk-range-resolver: TOOLWRIGHT_SDK_DIR is not set; run it through scripts/test-sdk-range.js.');

module.exports = (request, options) => {
  if (!request.startsWith('@modelcontextprotocol/')) return fastResolver(request, options);
  const resolved = options.defaultResolver(request, { ...options, basedir: SDK_DIR });
  if (LOG) appendFileSync(LOG, `${request}\t${resolved}\n`);
  return resolved;
};
