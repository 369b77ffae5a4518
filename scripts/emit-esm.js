#!/usr/bin/env node
'use strict';
// Writes the ES module build of @toolwright/core and @toolwright/server to each package's `esm/`,
// which their `exports` offer under the `workerd` condition: the build a Worker bundler takes
// (examples/edge/scripts/bundleWorker.mjs, wrangler). From ES modules esbuild can leave out what the
// app never reaches, of Toolwright and of the SDK and zod, whose ES module builds Toolwright's
// imports then lead to (a CommonJS `require` of them takes each whole). Node, Deno and Bun never
// read it: they load `bundle/` (scripts/bundle-packages.js).
//
// One file per source file, from TypeScript's transpileModule: the packages compile with
// `isolatedModules`, so each file transpiles on its own exactly as tsc would emit it, and their
// source has no decorators (decorator metadata needs the type checker). Relative imports keep no
// extension, which bundlers resolve. `esm/package.json` marks the files as ES modules, every one
// with side effects (a bundler keeps each module it reaches and drops only unused declarations).
// Each file has a source map into src/.
//
// A `require()` of a module of the package itself (which loads it on first use under Node) becomes
// an import at the top of the file here. esbuild must give every module a `require()` reaches,
// and every module that one imports, an initialiser that runs it when first required: a `require()`
// of Toolwright's fetch entry would put the SDK and zod, whole, behind initialisers, each module
// parsed a second time as it runs. Imported, they are laid out in one scope, parsed once.
// `require()`s of other packages stay: class-validator, typedi and class-transformer load when
// first used, and an absent optional peer (@opentelemetry/api) is told by the `require` that throws.
//   node scripts/emit-esm.js [package folder ...]   (default: packages/core packages/server)

const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..');
const PACKAGES = ['packages/core', 'packages/server'];

/** The package's compiler options, as ES modules. */
function esmOptions(pkgDir) {
  const configFile = path.join(pkgDir, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(configFile, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, pkgDir, undefined, configFile);
  if (!options.isolatedModules) throw new Error(`${configFile}: emit-esm.js transpiles file by file, which needs "isolatedModules": true.`);
  return {
    ...options,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    declaration: false,
    declarationMap: false,
    composite: false,
    sourceMap: true,
    inlineSources: false,
  };
}

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** The first decorator in `file`'s source, if any: transpileModule cannot emit its metadata (it needs the type checker). */
function firstDecorator(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => (ts.isDecorator(node) ? node : ts.forEachChild(node, visit));
  return visit(source);
}

/** Whether `node` is `require('<relative path>')`: a module of the package itself. */
function isOwnRequire(node) {
  return (
    ts.isCallExpression(node) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === 'require' &&
    node.arguments.length === 1 &&
    ts.isStringLiteral(node.arguments[0]) &&
    node.arguments[0].text.startsWith('.')
  );
}

/** Replaces each `require('./x')` with a namespace imported at the top of the file (`import * as module_1 from './x'`). */
function importOwnRequires(context) {
  const { factory } = context;
  return (file) => {
    const imports = new Map();
    const visit = (node) => {
      if (!isOwnRequire(node)) return ts.visitEachChild(node, visit, context);
      const specifier = node.arguments[0].text;
      if (!imports.has(specifier)) imports.set(specifier, factory.createUniqueName('module'));
      return imports.get(specifier);
    };
    const visited = ts.visitEachChild(file, visit, context);
    if (imports.size === 0) return visited;
    const declarations = [...imports].map(([specifier, name]) =>
      factory.createImportDeclaration(undefined, factory.createImportClause(false, undefined, factory.createNamespaceImport(name)), factory.createStringLiteral(specifier)),
    );
    return factory.updateSourceFile(visited, [...declarations, ...visited.statements]);
  };
}

function emit(pkgDir) {
  const options = esmOptions(pkgDir);
  const src = path.join(pkgDir, 'src');
  const out = path.join(pkgDir, 'esm');
  fs.rmSync(out, { recursive: true, force: true });
  for (const file of sourceFiles(src)) {
    const relative = path.relative(src, file).replace(/\.ts$/, '.js');
    const target = path.join(out, relative);
    const text = fs.readFileSync(file, 'utf8');
    const decorator = firstDecorator(file, text);
    if (decorator)
      throw new Error(
        `${file}: a decorator (${decorator.getText()}) in Toolwright's own code: scripts/emit-esm.js transpiles file by file, which cannot emit decorator metadata; emit the ES module build with tsc instead.`,
      );
    const { outputText, sourceMapText, diagnostics } = ts.transpileModule(text, {
      compilerOptions: options,
      fileName: file,
      reportDiagnostics: true,
      transformers: { after: [importOwnRequires] },
    });
    if (diagnostics?.length) throw new Error(`${file}: ${ts.flattenDiagnosticMessageText(diagnostics[0].messageText, '\n')}`);
    const map = JSON.parse(sourceMapText);
    map.file = path.basename(target);
    map.sources = [path.relative(path.dirname(target), file).split(path.sep).join('/')];
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, outputText);
    fs.writeFileSync(`${target}.map`, JSON.stringify(map));
  }
  fs.writeFileSync(path.join(out, 'package.json'), `${JSON.stringify({ type: 'module', sideEffects: true }, null, 2)}\n`);
}

const dirs = process.argv.length > 2 ? process.argv.slice(2) : PACKAGES;
for (const dir of dirs) emit(path.resolve(ROOT, dir));
