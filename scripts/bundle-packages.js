#!/usr/bin/env node
'use strict';
// Bundles the JavaScript that `tsc -b` emitted for each runtime package, so a server loads a few
// files of ours at startup instead of about 80 (on Node 20 each module costs a resolve, a read and
// a wrapper compile), and holds in memory only the code it can run.
//
// A package's modules go into up to four bundles, each module into exactly one, so all entry points
// share one copy of each module:
// - `bundle/all.js`: what the package's STARTUP entry points load (for @toolwright/server, `.` and
//   `./stdio`: what a stdio server runs). Node keeps a script's whole source text in memory for lazy
//   compilation, so code that a stdio server never runs (HTTP, fetch, the test kit, auth,
//   middleware, the proxy) stays out of it.
// - `bundle/extensions.js`: modules a startup entry re-exports that only some apps run (ON_DEMAND:
//   tasks, skills, elicitation forms), read when the first of them is needed.
// - `bundle/web.js`: the rest of the web-standard path (WEB: the fetch handler, auth, middleware),
//   read when one of its entry points or modules is first needed. Deno, Bun and Workers serve
//   with it, and never read lazy.js.
// - `bundle/lazy.js`: every other module, read from disk when one of them is first needed: an entry
//   point such as `@toolwright/server/http`, or a `require()` inside a function (`app.listen({
//   transport: 'http' })` loads the node HTTP listener that way).
// A module in one bundle that imports a module of another gets it through that bundle's
// module table (`require('./all.js')['dist/app/App.js']`), never a copy.
//
// Every entry point gets a small view, `bundle/<name>.js`, that returns its part of a bundle. An
// entry whose tsc module only re-exports (house rule: `index.ts` re-exports and nothing else) gets
// one getter per export, so a module runs when the first of its exports is read: a server that
// never reads `tasks` does not run the tasks extension. Its plain `require('x')` lines (side-effect
// imports such as reflect-metadata) still run when the entry is loaded.
//
// Input is tsc's output, never TypeScript: tsc has already emitted the decorator metadata.
// Types stay in `dist/` (`types` in each export). The source maps lead back to `src/`.
//
// An entry point in STANDALONE is bundled on its own instead: it must run before the rest of
// the package is even loaded (`@toolwright/server/compile-cache` turns on Node's compile
// cache for everything loaded after it).

const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');
const ts = require('typescript');
const { compileWithFile } = require('./compileWithFile');
const { markLongLines } = require('./markLongLines');

const ROOT = path.resolve(__dirname, '..');
const PACKAGES = ['packages/core', 'packages/server'];
/** The entry points whose modules go into `all.js`; a package not named here has all its modules in `all.js`. */
const STARTUP = new Map([['@toolwright/server', ['.', './stdio']]]);
const STANDALONE = new Set(['@toolwright/server/compile-cache']);
/**
 * The module-level functions a stdio start and its first calls run, by module (recorded by
 * scripts/record-compile-hints.js): compiled with their bundle, so they come from Node's compile
 * cache instead of being compiled at every start (scripts/compileWithFile.js).
 */
const COMPILE_HINTS = JSON.parse(fs.readFileSync(path.join(__dirname, 'compile-hints.json'), 'utf8'));
/**
 * Modules that a startup entry re-exports but that run only in apps that use them (tasks, skills,
 * elicitation forms, per-request service scopes): not in `all.js` unless a startup module loads
 * them when it runs, but in `extensions.js`, read when the first of them is needed. Paths are
 * prefixes of a module's path in the package.
 */
const ON_DEMAND = new Map([
  ['@toolwright/server', ['dist/extensions/tasks/', 'dist/extensions/skills/']],
  ['@toolwright/core', ['dist/metadata/toolTaskMode.js', 'dist/elicit/', 'dist/container/ServiceScope.js']],
]);
/**
 * The web-standard path (for @toolwright/server: the fetch handler, bearer auth, middleware), which
 * Deno, Bun and Workers serve with: its modules that are not startup ones go into `web.js`, so
 * `@toolwright/server/fetch` reads neither the node listener, the test kit nor the proxy, and a
 * Worker bundle can leave `lazy.js` out. `entries`: the entry points whose modules these are;
 * `modules`: modules that startup code requires inside a function and that a server answering
 * through fetch may run (app.fetch, mounting, tracing, @UiResource's files, the tool files named by
 * glob and their `import()`, jose's `import()`, the SDK's skills extension, the check of overrides given to
 * createServer or connect). Paths are in the package.
 */
const WEB = new Map([
  [
    '@toolwright/server',
    {
      entries: ['./fetch', './auth', './middleware'],
      modules: [
        'dist/fetch/createAppFetch.js',
        'dist/compose/mountApps.js',
        'dist/compose/mountLater.js',
        'dist/handlers/tracedServerClass.js',
        'dist/extensions/apps/viewFileReader.js',
        'dist/ground/importModule.js',
        'dist/app/loadToolFiles.js',
        'dist/sdk/skillsEntry.js',
        'dist/compose/checkOverridesInjected.js',
      ],
    },
  ],
]);
const BUNDLES = { startup: 'all.js', onDemand: 'extensions.js', web: 'web.js', lazy: 'lazy.js' };

if (require.main === module) {
  (async () => {
    // Arguments: other package folders (e.g. a copy, to compare builds); the default is PACKAGES.
    const dirs = process.argv.length > 2 ? process.argv.slice(2) : PACKAGES;
    for (const dir of dirs) await bundle(path.resolve(ROOT, dir));
  })().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

async function bundle(pkgDir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const startup = STARTUP.get(pkg.name);
  const entries = Object.entries(pkg.exports)
    .filter(([subpath]) => subpath !== './package.json')
    .map(([subpath, target]) => entryOf(pkgDir, pkg.name, subpath, target));
  const shared = entries.filter((e) => !STANDALONE.has(e.specifier));

  const outDir = path.join(pkgDir, 'bundle');
  fs.rmSync(outDir, { recursive: true, force: true });

  const graph = moduleGraph(shared.map((e) => e.file));
  const inStartup = startup === undefined ? () => true : (e) => startup.includes(e.subpath);
  const prefixes = ON_DEMAND.get(pkg.name) ?? [];
  const onDemand = (file) => prefixes.some((prefix) => keyOf(pkgDir, file).startsWith(prefix));
  const startupEntries = shared.filter(inStartup).map((e) => e.file);
  // An entry's re-exports of on-demand modules do not count; anything else that loads one does.
  const startupModules = loadedBy(startupEntries, graph, (from, to) => startupEntries.includes(from) && onDemand(to));
  const extensionModules = loadedBy(
    [...graph.imports.keys()].filter((file) => onDemand(file) && !startupModules.has(file)),
    graph,
    (_, to) => startupModules.has(to),
  );
  const web = WEB.get(pkg.name) ?? { entries: [], modules: [] };
  const inWeb = (e) => !inStartup(e) && web.entries.includes(e.subpath);
  const webStarts = [...shared.filter(inWeb).map((e) => e.file), ...web.modules.map((key) => path.join(pkgDir, key))];
  for (const file of webStarts) if (!graph.imports.has(file)) throw new Error(`${pkg.name}: WEB names ${keyOf(pkgDir, file)}, which no entry point reaches; update WEB in scripts/bundle-packages.js.`);
  const earlier = (file) => startupModules.has(file) || extensionModules.has(file);
  const webModules = new Set([...loadedBy(webStarts, graph, (_, to) => earlier(to))].filter((file) => !earlier(file)));
  const parts = [
    { file: BUNDLES.startup, modules: startupModules, entries: shared.filter(inStartup) },
    { file: BUNDLES.onDemand, modules: extensionModules, entries: [] },
    { file: BUNDLES.web, modules: webModules, entries: shared.filter(inWeb) },
    {
      file: BUNDLES.lazy,
      modules: new Set([...graph.imports.keys()].filter((file) => !earlier(file) && !webModules.has(file))),
      entries: shared.filter((e) => !inStartup(e) && !inWeb(e)),
    },
  ].filter((part) => part.modules.size > 0 || part.entries.length > 0);
  for (const part of parts) {
    part.sources = part.entries.map((e) => entrySource(e));
    // Every module this bundle's code requires: its own modules' imports and its entry points'.
    part.needs = new Set([...part.modules].flatMap((file) => [...graph.imports.get(file)]).concat(part.sources.flatMap((s) => s.requires)));
  }
  for (const part of parts) {
    const others = parts.filter((p) => p !== part);
    // The modules of this bundle that another bundle requires: its module table.
    const table = [...part.modules].filter((file) => others.some((o) => o.needs.has(file)));
    const contents = [
      ...part.sources.map((s) => s.code),
      ...table.map((file) => `Object.defineProperty(exports, ${JSON.stringify(keyOf(pkgDir, file))}, { get: () => require(${JSON.stringify(file)}) });`),
    ].join('\n');
    await build({ stdin: { contents, resolveDir: pkgDir, sourcefile: `${pkg.name} ${part.file}` }, plugins: [otherBundles(pkgDir, others), requireOnce()] }, path.join(outDir, part.file));
  }
  for (const part of parts) {
    compileWithFile(path.join(outDir, part.file), COMPILE_HINTS);
    markLongLines(path.join(outDir, part.file));
  }
  for (const part of parts) {
    const bundled = require(path.join(outDir, part.file));
    for (const e of part.entries) writeView(pkgDir, e, Object.keys(bundled[e.subpath]), `require('./${part.file}')[${JSON.stringify(e.subpath)}]`);
  }

  for (const e of entries.filter((e) => STANDALONE.has(e.specifier))) {
    const file = `standalone/${path.basename(e.view)}`;
    await build({ entryPoints: [e.file], plugins: [requireOnce()] }, path.join(outDir, file));
    markLongLines(path.join(outDir, file));
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
    // Node keeps a script's source text in the heap as long as the script lives, and the compile
    // cache hashes all of it at every start: no indentation, no comments, no line breaks (a quarter of
    // the text). Names stay (stack traces and `fn.name` read them); the source map leads a frame back
    // to src/ (`node --enable-source-maps`).
    minifyWhitespace: true,
    minifySyntax: true,
    // Long lines, too: node would print the whole line an uncaught error was thrown from, but each
    // ends with a mark that tells it not to (scripts/markLongLines.js).
    sourcemap: true,
    outfile,
    logLevel: 'warning',
  });
}

/**
 * An esbuild plugin: each outside package a bundle imports (`@toolwright/core`, the SDK, typedi, ...)
 * is required once, by one module of the bundle that the others share. Left to itself esbuild writes a
 * `require('@toolwright/core')` into every module that imports it (31 in the server's all.js), and Node
 * resolves each of them afresh, package.json `exports` included, whenever the package was first loaded
 * from another file: about 50 resolutions a stdio start did for nothing, and the path functions they
 * run got hot enough for V8 to optimize them on a background thread.
 */
function requireOnce() {
  return {
    name: 'require-once',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.namespace === 'require-once' || args.path.startsWith('node:')) return { path: args.path, external: true };
        return { path: args.path, namespace: 'require-once' };
      });
      b.onLoad({ filter: /.*/, namespace: 'require-once' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
    },
  };
}

/** An esbuild plugin: a module that lives in another bundle is read from that bundle's module table. */
function otherBundles(pkgDir, others) {
  const home = new Map(others.flatMap((o) => [...o.modules].map((file) => [file, o.file])));
  return {
    name: 'other-bundles',
    setup(b) {
      b.onResolve({ filter: /^(\.\.?)?\// }, (args) => {
        if (args.namespace === 'other-bundle') return { path: args.path, external: true };
        const file = resolveLocal(args.resolveDir, args.path);
        return file && home.has(file) ? { path: keyOf(pkgDir, file), namespace: 'other-bundle', pluginData: home.get(file) } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'other-bundle' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`./${args.pluginData}`)})[${JSON.stringify(args.path)}];`,
        resolveDir: pkgDir,
        loader: 'js',
      }));
    },
  };
}

/**
 * What a bundle exports for an entry point (`code`) and the files that code requires: lazy getters
 * over the modules the entry re-exports, or the entry's whole module.
 */
function entrySource(entry) {
  const reexports = reexportsOf(entry.file);
  if (!reexports) {
    return { code: `Object.defineProperty(exports, ${JSON.stringify(entry.subpath)}, { enumerable: true, get: () => require(${JSON.stringify(entry.file)}) });`, requires: [entry.file] };
  }
  const local = (specifier) => (specifier.startsWith('.') ? resolveLocal(path.dirname(entry.file), specifier) : specifier);
  const req = (specifier) => `require(${JSON.stringify(local(specifier))})`;
  const name = entry.subpath === '.' ? 'mainEntry' : `${entry.subpath.slice(2).replace(/\W/g, '_')}Entry`;
  const code = [
    `const ${name} = {};`,
    ...reexports.effects.map((specifier) => `${req(specifier)};`),
    `Object.defineProperty(${name}, '__esModule', { value: true });`,
    ...reexports.names.map(
      ({ name: exported, specifier, member }) => `Object.defineProperty(${name}, ${JSON.stringify(exported)}, { enumerable: true, get: () => ${req(specifier)}[${JSON.stringify(member)}] });`,
    ),
    `Object.defineProperty(exports, ${JSON.stringify(entry.subpath)}, { enumerable: true, value: ${name} });`,
  ].join('\n');
  const requires = [...reexports.effects, ...reexports.names.map((n) => n.specifier)].filter((s) => s.startsWith('.')).map(local);
  return { code, requires };
}

/**
 * The re-exports of a tsc-emitted CommonJS module, or null when it does anything else. tsc writes
 * `export { a as b } from './x'` as `var x_1 = require("./x");` and
 * `Object.defineProperty(exports, "b", { enumerable: true, get: function () { return x_1.a; } });`.
 */
function reexportsOf(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const modules = new Map();
  const effects = [];
  const names = [];
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        const specifier = d.initializer && requiredSpecifier(d.initializer);
        if (!ts.isIdentifier(d.name) || !specifier) return null;
        modules.set(d.name.text, specifier);
      }
      continue;
    }
    if (!ts.isExpressionStatement(statement)) return null;
    const e = statement.expression;
    if (ts.isStringLiteral(e)) continue; // "use strict"
    const specifier = requiredSpecifier(e);
    if (specifier) {
      effects.push(specifier);
      continue;
    }
    if (isVoidExportsAssignment(e)) continue; // exports.a = exports.b = void 0;
    const getter = reexportGetter(e);
    if (getter === '__esModule') continue;
    if (!getter || !modules.has(getter.module)) return null;
    names.push({ name: getter.name, specifier: modules.get(getter.module), member: getter.member });
  }
  return { effects, names };
}

function requiredSpecifier(node) {
  return ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require' && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])
    ? node.arguments[0].text
    : undefined;
}

function isVoidExportsAssignment(node) {
  if (!ts.isBinaryExpression(node) || node.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return false;
  if (!ts.isPropertyAccessExpression(node.left) || !ts.isIdentifier(node.left.expression) || node.left.expression.text !== 'exports') return false;
  return ts.isVoidExpression(node.right) || isVoidExportsAssignment(node.right);
}

/** `Object.defineProperty(exports, "name", { enumerable: true, get: function () { return module_1.member; } })`, or '__esModule'. */
function reexportGetter(node) {
  if (!ts.isCallExpression(node) || node.expression.getText() !== 'Object.defineProperty') return undefined;
  const [target, key, descriptor] = node.arguments;
  if (!target || !ts.isIdentifier(target) || target.text !== 'exports' || !key || !ts.isStringLiteral(key)) return undefined;
  if (key.text === '__esModule') return '__esModule';
  if (!descriptor || !ts.isObjectLiteralExpression(descriptor)) return undefined;
  const get = descriptor.properties.find((p) => p.name?.getText() === 'get');
  const fn = get && ts.isPropertyAssignment(get) ? get.initializer : undefined;
  const body = fn && ts.isFunctionExpression(fn) ? fn.body.statements : [];
  const returned = body.length === 1 && ts.isReturnStatement(body[0]) ? body[0].expression : undefined;
  if (!returned || !ts.isPropertyAccessExpression(returned) || !ts.isIdentifier(returned.expression)) return undefined;
  return { name: key.text, module: returned.expression.text, member: returned.name.text };
}

/**
 * The package's modules reached from these files, each with the modules it requires: `imports`
 * (every literal `require` of a file of the package) and `loads` (those it runs when it runs: a
 * `require` outside any function, which is also how tsc writes an import or a re-export).
 */
function moduleGraph(entryFiles) {
  const graph = { imports: new Map(), loads: new Map() };
  const visit = (file) => {
    if (graph.imports.has(file)) return;
    const imports = new Set();
    const loads = new Set();
    graph.imports.set(file, imports);
    graph.loads.set(file, loads);
    const walk = (node, inFunction) => {
      const specifier = requiredSpecifier(node);
      if (specifier?.startsWith('.')) {
        const target = resolveLocal(path.dirname(file), specifier);
        if (!target) throw new Error(`${file}: cannot resolve require(${JSON.stringify(specifier)})`);
        imports.add(target);
        if (!inFunction) loads.add(target);
      }
      ts.forEachChild(node, (child) => walk(child, inFunction || ts.isFunctionLike(node)));
    };
    walk(ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.JS), false);
    for (const target of imports) visit(target);
  };
  for (const file of entryFiles) visit(file);
  return graph;
}

/**
 * The modules that loading these files runs (for an entry's re-exports: may run, on first read),
 * leaving out the loads that `skip(from, to)` names.
 */
function loadedBy(files, graph, skip = () => false) {
  const loaded = new Set();
  const add = (file) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const next of graph.loads.get(file)) if (!skip(file, next)) add(next);
  };
  for (const file of files) add(file);
  return loaded;
}

function resolveLocal(dir, specifier) {
  try {
    return require.resolve(path.resolve(dir, specifier));
  } catch {
    return undefined;
  }
}

/** A module's key in its bundle's module table: its path in the package. */
function keyOf(pkgDir, file) {
  return path.relative(pkgDir, file).split(path.sep).join('/');
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
function entryOf(pkgDir, name, subpath, target) {
  const { default: file, types } = target;
  const problem = (what) => new Error(`${name}: exports[${JSON.stringify(subpath)}] ${what}`);
  if (typeof file !== 'string' || !/^\.\/bundle\/[\w-]+\.js$/.test(file)) throw problem(`"default" must be ./bundle/<name>.js, got ${JSON.stringify(file)}`);
  if (typeof types !== 'string' || !/^\.\/dist\/.+\.d\.ts$/.test(types)) throw problem(`"types" must be ./dist/<path>.d.ts, got ${JSON.stringify(types)}`);
  if (Object.values(BUNDLES).includes(path.basename(file))) throw problem(`"default" must not be named like a bundle (${Object.values(BUNDLES).join(', ')})`);
  return { subpath, specifier: `${name}${subpath.slice(1)}`, view: file, file: path.join(pkgDir, types.replace(/\.d\.ts$/, '.js')) };
}

module.exports = { moduleGraph, loadedBy, reexportsOf };
