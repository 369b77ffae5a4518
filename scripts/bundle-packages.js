#!/usr/bin/env node
'use strict';
// Bundles the JavaScript that `tsc -b` emitted for each runtime package into one file,
// `bundle/all.js`, so a server loads a few files of ours at startup instead of about 80
// (on Node 20 each module costs a resolve, a read and a wrapper compile).
//
// Every entry point in a package's `exports` gets a small view, `bundle/<name>.js`, that
// returns its part of the one bundle. All entry points therefore share one copy of each
// module. Entry points other than the main one load on first access, so an app that never
// imports `@toolwright/server/http` does not run that code.
//
// Input is tsc's output, never TypeScript: tsc has already emitted the decorator metadata.
// Types stay in `dist/` (`types` in each export). The source map leads back to `src/`.
//
// An entry point in STANDALONE is bundled on its own instead: it must run before the rest of
// the package is even loaded (`@toolwright/server/compile-cache` turns on Node's compile
// cache for everything loaded after it).

const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const ROOT = path.resolve(__dirname, '..');
const PACKAGES = ['packages/core', 'packages/server'];
const STANDALONE = new Set(['@toolwright/server/compile-cache']);

(async () => {
  for (const dir of PACKAGES) await bundle(path.join(ROOT, dir));
})().catch((error) => {
  console.error(error);
  process.exit(1);
});

async function bundle(pkgDir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const entries = Object.entries(pkg.exports)
    .filter(([subpath]) => subpath !== './package.json')
    .map(([subpath, target]) => entryOf(pkg.name, subpath, target));
  const shared = entries.filter((e) => !STANDALONE.has(e.specifier));

  const outDir = path.join(pkgDir, 'bundle');
  fs.rmSync(outDir, { recursive: true, force: true });
  // Each entry point is a getter over tsc's entry module: evaluated on first access, then cached by the bundle.
  const contents = shared.map((e) => `Object.defineProperty(exports, ${JSON.stringify(e.subpath)}, { enumerable: true, get: () => require(${JSON.stringify(e.compiled)}) });`).join('\n');
  await build({ stdin: { contents, resolveDir: pkgDir, sourcefile: `${pkg.name} entry points` } }, path.join(outDir, 'all.js'));
  const bundled = require(path.join(outDir, 'all.js'));
  for (const e of shared) writeView(pkgDir, e, Object.keys(bundled[e.subpath]), `require('./all.js')[${JSON.stringify(e.subpath)}]`);

  for (const e of entries.filter((e) => STANDALONE.has(e.specifier))) {
    const file = `standalone/${path.basename(e.view)}`;
    await build({ entryPoints: [path.join(pkgDir, e.compiled)] }, path.join(outDir, file));
    process.env.TOOLWRIGHT_COMPILE_CACHE = 'off'; // read its export names without turning the cache on in this process
    writeView(pkgDir, e, Object.keys(require(path.join(outDir, file))), `require(${JSON.stringify(`./${file}`)})`);
  }
}

function build(input, outfile) {
  return esbuild.build({
    ...input,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external', // @toolwright/core, the SDK, class-validator, ...: one copy each, shared with the app
    sourcemap: true,
    outfile,
    logLevel: 'warning',
  });
}

function writeView(pkgDir, entry, names, source) {
  fs.writeFileSync(path.join(pkgDir, entry.view), view(entry.specifier, names, source));
}

/**
 * The file an entry point resolves to. Node's ESM loader finds a CommonJS module's named
 * exports by reading its source (cjs-module-lexer), so the names are listed in a statement
 * that it reads and that never runs; without it `import { Tool } from '@toolwright/core'` fails.
 */
function view(specifier, names, source) {
  const odd = names.filter((n) => !/^[A-Za-z_$][\w$]*$/.test(n) || n === 'default');
  if (odd.length > 0) throw new Error(`${specifier}: cannot list the exports ${odd.join(', ')} for ES modules; export plain identifiers.`);
  return ["'use strict';", `// ${specifier}: an entry point, built by scripts/bundle-packages.js.`, `0 && (module.exports = { ${names.join(', ')} });`, `module.exports = ${source};`, ''].join('\n');
}

/** Where an export's view is written and which compiled module it returns, checked against the `exports` conventions. */
function entryOf(name, subpath, target) {
  const { default: file, types } = target;
  const problem = (what) => new Error(`${name}: exports[${JSON.stringify(subpath)}] ${what}`);
  if (typeof file !== 'string' || !/^\.\/bundle\/[\w-]+\.js$/.test(file)) throw problem(`"default" must be ./bundle/<name>.js, got ${JSON.stringify(file)}`);
  if (typeof types !== 'string' || !/^\.\/dist\/.+\.d\.ts$/.test(types)) throw problem(`"types" must be ./dist/<path>.d.ts, got ${JSON.stringify(types)}`);
  return { subpath, specifier: `${name}${subpath.slice(1)}`, view: file, compiled: types.replace(/\.d\.ts$/, '.js') };
}
