'use strict';
// Jest resolver for scripts/test-peer-range.js: the fast project's resolver, except that the modules
// of the family under test (TOOLWRIGHT_RANGE_MODULES: comma-separated package names, or scopes
// ending in `/`; every entry point) resolve from TOOLWRIGHT_RANGE_DIR, a temporary folder where the
// script installed the lowest or highest versions of the supported ranges. Their own imports then
// resolve inside that folder too: one copy of each version. Each file it resolves so is appended to
// TOOLWRIGHT_RANGE_LOG, for the script to check.
const { appendFileSync } = require('node:fs');
const fastResolver = require('./fast-resolver');

const DIR = process.env.TOOLWRIGHT_RANGE_DIR;
const MODULES = (process.env.TOOLWRIGHT_RANGE_MODULES ?? '').split(',').filter(Boolean);
const LOG = process.env.TOOLWRIGHT_RANGE_LOG;
if (!DIR || MODULES.length === 0) throw new Error('peer-range-resolver: TOOLWRIGHT_RANGE_DIR or TOOLWRIGHT_RANGE_MODULES is not set; run it through scripts/test-peer-range.js.');

/** Whether `request` names one of the family's modules (`rxjs`, `rxjs/operators`, `@nestjs/core`...). */
const inFamily = (request) => MODULES.some((name) => (name.endsWith('/') ? request.startsWith(name) : request === name || request.startsWith(`${name}/`)));

module.exports = (request, options) => {
  if (!inFamily(request)) return fastResolver(request, options);
  const resolved = options.defaultResolver(request, { ...options, basedir: DIR });
  if (LOG) appendFileSync(LOG, `${request}\t${resolved}\n`);
  return resolved;
};
