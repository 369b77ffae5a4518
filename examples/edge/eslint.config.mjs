// @ts-check
import toolwright from '@toolwright/eslint-plugin';

/** `npm run lint` (and `npm test`): what only the compiler sees, e.g. a DTO property without a decorator. */
export default [{ ignores: ['dist/', 'dist-worker/', '.wrangler/', 'coverage/'] }, toolwright.configs.recommended];
