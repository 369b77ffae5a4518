/** One jest run for every package and example. Tests import packages by their public names, mapped to source. */
module.exports = {
  testEnvironment: 'node',
  setupFiles: ['reflect-metadata'],
  roots: ['<rootDir>/packages', '<rootDir>/examples', '<rootDir>/docs'],
  testMatch: ['**/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }] },
  moduleNameMapper: {
    '^@toolwright/core$': '<rootDir>/packages/core/src/index.ts',
    '^@toolwright/core/(.*)$': '<rootDir>/packages/core/src/$1/index.ts',
    '^@toolwright/server$': '<rootDir>/packages/server/src/index.ts',
    '^@toolwright/server/(.*)$': '<rootDir>/packages/server/src/$1/index.ts',
    '^@toolwright/cli$': '<rootDir>/packages/cli/src/index.ts',
    '^@toolwright/redis$': '<rootDir>/packages/redis/src/index.ts',
  },
  testTimeout: 30000,
};
