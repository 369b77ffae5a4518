/**
 * Jest through ts-jest: tests are compiled by tsc, like the build, so decorator metadata
 * is emitted in tests too (esbuild-based runners drop it).
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  setupFiles: ['reflect-metadata'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }] },
  testTimeout: 30000,
};
