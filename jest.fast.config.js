/**
 * The quick loop, `npm run test:fast`: the `fast` project of jest.config.js on its own, so that
 * jest's arguments follow as usual (`npm run test:fast -- packages/core`, `-- --watch`).
 */
const { projects, testTimeout, maxWorkers } = require('./jest.config.js');

module.exports = { ...projects.find((project) => project.displayName === 'fast'), testTimeout, maxWorkers };
