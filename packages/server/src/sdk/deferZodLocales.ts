import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { seedModuleCache } from './seedModuleCache';

// zod's internals (the SDK's schema library): its index of translations.

/** One `var x = require("./fr.cjs"); Object.defineProperty(exports, "fr", …)` pair of zod's CommonJS index. */
const LOCALE_EXPORT = /var \w+ = require\("\.\/([\w-]+\.cjs)"\);\s*Object\.defineProperty\(exports, "(\w+)"/g;

/**
 * zod 4 loads its `locales` index with the library, and the index requires all of its sixty-odd
 * translations, though zod uses the English one (loaded on its own) unless an app calls
 * `z.config(z.locales.xx())`. That is 1 MB of heap and sixty files read at every start of a
 * server on the SDK. This puts an index with the same names in the module cache, each
 * translation loaded when it is first read. The index is read, not run: when its form is not
 * the one recognized here (another zod release), nothing changes. Returns whether it did.
 */
export function deferZodLocales(): boolean {
  let index: string;
  try {
    // The zod the SDK gets, which is the one whose index loads with the SDK.
    index = require.resolve('zod/v4/locales', { paths: [dirname(require.resolve('@modelcontextprotocol/server'))] });
  } catch {
    return false;
  }
  if (require.cache[index]) return false;
  const source = readFileSync(index, 'utf8');
  const locales = [...source.matchAll(LOCALE_EXPORT)].map(([, file, name]) => ({ file: join(dirname(index), file!), name: name! }));
  if (locales.length === 0 || locales.length !== source.split('require(').length - 1) return false;
  const lazy = Object.defineProperty({}, '__esModule', { value: true });
  for (const { file, name } of locales) {
    let locale: unknown;
    Object.defineProperty(lazy, name, { enumerable: true, get: () => (locale ??= defaultExport(require(file))) });
  }
  return seedModuleCache(index, Object.freeze(lazy));
}

/** What the index's `__importDefault(m).default` reads. */
function defaultExport(module: { __esModule?: boolean; default?: unknown }): unknown {
  return module.__esModule ? module.default : module;
}
