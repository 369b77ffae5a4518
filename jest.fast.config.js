/**
 * The quick loop, `npm run test:fast`: the `fast` project of jest.config.js on its own, so that
 * jest's arguments follow as usual (`npm run test:fast -- packages/core`, `-- --watch`).
 */
const { availableParallelism } = require('node:os');
const { projects, testTimeout } = require('./jest.config.js');

// The lane seam's differential fuzz sends 10,000 generated messages in the full run (`jest`,
// `npm test`); the quick loop sends 1,000 of them (FUZZ_MESSAGES overrides either).
process.env.FUZZ_MESSAGES ??= '1000';
// The property and differential tests run a fifth of their generated cases here, all of them in
// the full run (packages/core/test/fixtures/fuzzRuns.ts; FUZZ_SCALE=1 runs them all here too).
process.env.FUZZ_SCALE ??= '0.2';
// Workers with a 64 MB young generation (V8's default is 16 MB) scavenge less often in suites that build and drop
// many schemas and messages: about a tenth less CPU for the loop (bench/README.md, "Figures of 2026-12-07, morning").
if (!/--max-semi-space-size\b/.test(process.env.NODE_OPTIONS ?? '')) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --max-semi-space-size=64`.trim();

// One worker more than cores: these tests run in jest's process but spend part of their time
// waiting on sockets and timers, so a third worker on 2 cores keeps both busy (bench/README.md has the figures).
const maxWorkers = availableParallelism() + 1;

module.exports = { ...projects.find((project) => project.displayName === 'fast'), testTimeout, maxWorkers };
