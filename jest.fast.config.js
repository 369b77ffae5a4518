/**
 * The quick loop, `npm run test:fast`: the `fast` project of jest.config.js on its own, so that
 * jest's arguments follow as usual (`npm run test:fast -- packages/core`, `-- --watch`).
 */
const { projects, testTimeout, maxWorkers } = require('./jest.config.js');

// The lane seam's differential fuzz sends 10,000 generated messages in the full run (`jest`,
// `npm test`); the quick loop sends 2,000 of them (FUZZ_MESSAGES overrides either).
process.env.FUZZ_MESSAGES ??= '2000';

module.exports = { ...projects.find((project) => project.displayName === 'fast'), testTimeout, maxWorkers };
