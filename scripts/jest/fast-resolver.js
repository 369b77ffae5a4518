'use strict';
// Jest resolver for the `fast` project (jest.config.js): a fast test needs no build, so it may
// not load a package's or an example's compiled output (dist/, bundle/). @toolwright/* map to
// src/ (moduleNameMapper); import an example from its src/ too.
const { join, relative, sep } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const BUILT = /^(packages|examples)\/[^/]+\/(dist|bundle)\//;

module.exports = (request, options) => {
  const resolved = options.defaultResolver(request, options);
  const inRepo = relative(ROOT, resolved).split(sep).join('/');
  if (BUILT.test(inRepo)) {
    throw new Error(
      `${relative(ROOT, options.basedir)}: a fast test loads no build output, and '${request}' is ${inRepo}. ` +
        'Import the source instead; or, when the test is about the build, add its file to SLOW in jest.config.js.',
    );
  }
  return resolved;
};
