// @ts-check
// `npm run lint` (eslint, then prettier --check), first thing `npm test` runs after the type check.
// The recommended configs of ESLint and typescript-eslint, without type information (fast; tsc checks types).
import js from '@eslint/js';
import toolwright from '@toolwright/eslint-plugin';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '**/.next/',
      '**/next-env.d.ts',
      'examples/edge/dist-worker/',
      '**/.wrangler/',
      'packages/*/bundle/',
      'packages/*/esm/',
      '**/coverage/',
      '.bench/',
      'bench/results/',
      'docs/.vitepress/dist/',
      'docs/.vitepress/cache/',
      'docs/api/',
      'docs/.inline-snippets/',
      'examples/conformance/suite/',
      'scripts/node-versions/node_modules/',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // A `let` a closure reads before its one assignment (serveHttp answers 503 until its handler is set) stays let: const would throw there.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Unused on purpose: a leading underscore (`_req`), the rest of a destructuring (`{ drop, ...rest }`), a caught error.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // Scripts, benchmarks, fixtures and configs in .js are CommonJS.
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    // Off: the packages are CommonJS and require() optional peers and heavy modules on first use (startup-footprint tests pin it); tests require JS fixtures.
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // What users run (built: `npm run build` first): the examples are what `toolwright new` generates, the snippets are the docs' code.
    ...toolwright.configs.recommended,
    files: ['examples/*/src/**/*.ts', 'examples/*/test/**/*.ts', 'docs/snippets/**/*.ts'],
    // The build-error page's cases are mistakes on purpose; the compilers page's tsconfig.json is a snippet with no sources.
    ignores: ['docs/snippets/errors/buildErrorCases.ts', 'docs/snippets/compilers/**'],
  },
  {
    // The docs site's render check runs code in the browser page.
    files: ['docs/scripts/**', 'docs/.vitepress/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // The edge example's entries run on Deno and Bun, whose globals they use.
    files: ['examples/edge/deno.mjs', 'examples/edge/bun.mjs', 'examples/edge/deno-worker.mjs', 'examples/edge/bun-worker.mjs'],
    languageOptions: { globals: { ...globals.node, Deno: 'readonly', Bun: 'readonly' } },
  },
  {
    // Tests and jest setup: jest's globals.
    files: ['**/test/**', 'scripts/jest/**', '**/*.test.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
  },
);
