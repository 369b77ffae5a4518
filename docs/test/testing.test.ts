/** The Testing page shows these spec files whole or in regions: run them as they are. */
import '../snippets/testing/accounts.spec';
import '../snippets/testing/kit.spec';

describe('the jest config the Testing page shows', () => {
  it('uses ts-jest and loads reflect-metadata first', () => {
    const config = require('../snippets/testing/jest.config.js') as { setupFiles: string[]; transform: Record<string, [string, unknown]> };
    expect(config.setupFiles).toEqual(['reflect-metadata']);
    expect(Object.values(config.transform)[0][0]).toBe('ts-jest');
  });
});
