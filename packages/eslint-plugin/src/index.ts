import type { ESLint, Linter } from 'eslint';
import * as tseslint from 'typescript-eslint';
import { decoratorSettings } from './rules/decoratorSettings';
import { dtoPropertyDecorated } from './rules/dtoPropertyDecorated';
import { injectableClassDecorated } from './rules/injectableClassDecorated';
import { paramOptionalMatches } from './rules/paramOptionalMatches';
import { paramTypeSupported } from './rules/paramTypeSupported';
import { propertyOptionalMatches } from './rules/propertyOptionalMatches';

/** The rules, by name: `@toolwright/<name>` in a config. */
export const rules = {
  'dto-property-decorated': dtoPropertyDecorated,
  'param-optional-matches': paramOptionalMatches,
  'property-optional-matches': propertyOptionalMatches,
  'param-type-supported': paramTypeSupported,
  'injectable-class-decorated': injectableClassDecorated,
  'decorator-settings': decoratorSettings,
};

export const meta = { name: '@toolwright/eslint-plugin', version: '0.1.0' };

/** The plugin object flat configs register (the module itself is one too: `import toolwright from ...`). */
const plugin = { meta, rules } as unknown as ESLint.Plugin;

/**
 * The flat configs. `recommended`: every rule as an error on TypeScript files, with
 * typescript-eslint's parser and type information from the nearest tsconfig.json.
 *
 * @example
 * // eslint.config.mjs
 * import toolwright from '@toolwright/eslint-plugin';
 * export default [toolwright.configs.recommended];
 */
export const configs: { readonly recommended: Linter.Config } = {
  recommended: {
    name: '@toolwright/recommended',
    files: ['**/*.ts', '**/*.mts', '**/*.cts'],
    plugins: { '@toolwright': plugin },
    languageOptions: {
      parser: tseslint.parser as Linter.Parser,
      parserOptions: { projectService: true },
    },
    rules: Object.fromEntries(Object.keys(rules).map((name) => [`@toolwright/${name}`, 'error'])),
  },
};
