// #region config
/** jest with ts-jest: the TypeScript compiler itself, so decorator metadata is emitted. */
module.exports = {
  testEnvironment: 'node',
  setupFiles: ['reflect-metadata'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
};
// #endregion config
