#!/usr/bin/env node
'use strict';
// The type surface of every public entry point, pinned in a checked-in report.
//
//   node scripts/api-report.js            check: fail when a report differs from the built types
//   node scripts/api-report.js --update   write the reports again (then commit packages/*/etc)
//   ... --only=@toolwright/server/http    one entry point (repeatable)
//   ... --reports=<dir>                   read/write the reports under <dir>/<package folder>/ instead
//   ... --package=<dir>                   check this package folder instead of the published ones (repeatable; tests)
//
// API Extractor reads the declarations tsc emitted (`npm run build` first) and writes one
// `packages/<pkg>/etc/<name>.api.md` per `exports` entry of @toolwright/core,
// @toolwright/server, @toolwright/redis and the framework adapters (@toolwright/express, @toolwright/fastify, @toolwright/nestjs, @toolwright/hono, @toolwright/next), @toolwright/oauth and @toolwright/openapi. `./internal` has no report: it is for Toolwright's own packages and
// carries no compatibility promise. The runtime twin of this check is
// packages/server/test/public-api.test.ts (the names each entry point exports).
//
// The API is closed: every type a public signature uses is exported by a public entry point of
// its package (the same one, or another: `@toolwright/server/http` may take the `ServerFactory`
// that `@toolwright/server` exports), or comes from another package. A type exported by none
// (API Extractor's ae-forgotten-export) fails the check, naming the type and where it is used.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Extractor, ExtractorConfig, CompilerState } = require('@microsoft/api-extractor');

const ROOT = path.resolve(__dirname, '..');
const PACKAGES_REPORTED = [
  'packages/core',
  'packages/server',
  'packages/redis',
  'packages/express',
  'packages/fastify',
  'packages/nestjs',
  'packages/hono',
  'packages/next',
  'packages/oauth',
  'packages/openapi',
];
const UNREPORTED = new Set(['./package.json', './internal']);
const QUIET = new Set([
  'console-preamble',
  'console-compiler-version-notice',
  'console-api-report-not-copied',
  'console-api-report-copied',
  'console-api-report-unchanged',
  'console-api-report-created',
]);

const args = process.argv.slice(2);
const update = args.includes('--update');
const only = args.filter((a) => a.startsWith('--only=')).map((a) => a.slice('--only='.length));
const reportsArg = args.find((a) => a.startsWith('--reports='));
const packageArgs = args.filter((a) => a.startsWith('--package=')).map((a) => path.resolve(a.slice('--package='.length)));
const unknown = args.filter((a) => a !== '--update' && !a.startsWith('--only=') && !a.startsWith('--reports=') && !a.startsWith('--package='));
if (unknown.length > 0) fail(`api-report: unknown argument ${unknown.join(', ')}; use --update, --only=<entry point>, --reports=<dir>, --package=<dir>.`);

const PACKAGES = packageArgs.length > 0 ? packageArgs : PACKAGES_REPORTED;
const allEntries = PACKAGES.flatMap(entriesOf);
const entries = allEntries.filter((e) => only.length === 0 || only.includes(e.specifier));
const missing = only.filter((s) => !entries.some((e) => e.specifier === s));
if (missing.length > 0) fail(`api-report: no public entry point ${missing.join(', ')}; known: ${allEntries.map((e) => e.specifier).join(', ')}.`);

const started = Date.now();
const baseConfig = ExtractorConfig.loadFile(path.join(__dirname, 'api-extractor.json'));
const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-api-report-'));
const changed = [];
const failed = [];
const unexported = [];
let compilerState;
let exportedNames;
try {
  for (const entry of entries) {
    const config = configFor(entry);
    // One TypeScript program for all entry points: each entry point reuses the analysis of the others.
    compilerState ??= CompilerState.create(config, { additionalEntryPoints: allEntries.map((e) => e.dts) });
    exportedNames ??= exportsOfEntries(compilerState.program);
    const result = Extractor.invoke(config, {
      localBuild: update,
      compilerState,
      printApiReportDiff: !update,
      messageCallback: (message) => {
        // Which TypeScript analyses the declarations, and "the report changed": this script says the latter itself, with the fix.
        if (QUIET.has(message.messageId)) message.handled = true;
        if (message.messageId === 'ae-forgotten-export') {
          // Not exported by this entry point: fine when another public entry point of the package exports it.
          const name = /The symbol "([^"]+)"/.exec(message.text)?.[1]?.replace(/_\d+$/, '');
          const elsewhere = allEntries.filter((e) => e.pkgDir === entry.pkgDir && e !== entry && exportedNames.get(e)?.has(name));
          // Counted by this script (below, with the fix), not by API Extractor.
          message.handled = true;
          message.logLevel = 'none';
          if (elsewhere.length === 0) {
            const where = message.sourceFilePath ? `${path.relative(ROOT, message.sourceFilePath)}:${message.sourceFileLine}` : entry.dts;
            unexported.push(`  ${name}, used by ${entry.specifier} (${where})`);
          }
        }
      },
    });
    if (result.apiReportChanged) changed.push(entry);
    else if (!result.succeeded) failed.push(entry);
  }
} finally {
  fs.rmSync(tempRoot, { recursive: true, force: true });
}

const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (unexported.length > 0) {
  fail(
    [
      `api-report: ${unexported.length} type${unexported.length === 1 ? '' : 's'} in public signatures ${unexported.length === 1 ? 'is' : 'are'} exported by no public entry point (ae-forgotten-export):`,
      ...[...new Set(unexported)],
      'Export each from the entry point whose functions use it (a `export type { ... }` line in its index.ts),',
      'or take it out of the signature; then `npm run api:update`.',
    ].join('\n'),
  );
}
if (failed.length > 0) fail(`api-report: API Extractor reported errors for ${failed.map((e) => e.specifier).join(', ')} (above).`);
if (update) {
  console.log(
    `api-report: ${entries.length} reports written${changed.length > 0 ? `, ${changed.length} changed: ${changed.map((e) => e.report).join(', ')}` : ', none changed'} (${seconds} s). Commit them with the change.`,
  );
} else if (changed.length > 0) {
  fail(
    [
      `api-report: the public types changed for ${changed.map((e) => e.specifier).join(', ')}, and the checked-in report says otherwise:`,
      ...changed.map((e) => `  ${e.report}${fs.existsSync(path.join(ROOT, e.report)) ? '' : ' (missing)'}`),
      'If the change is intended, run `npm run api:update` and commit the updated reports with it;',
      'otherwise change the code back (the diff is above: - report, + built types).',
    ].join('\n'),
  );
} else {
  console.log(`api-report: ${entries.length} public entry points match their reports (${seconds} s).`);
}

/** The reported entry points of one package, from its `exports`. */
function entriesOf(dir) {
  const pkgDir = path.resolve(ROOT, dir);
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  return Object.entries(pkg.exports)
    .filter(([subpath]) => !UNREPORTED.has(subpath))
    .map(([subpath, target]) => {
      const name = subpath === '.' ? 'index' : subpath.slice(2).replace(/\//g, '-');
      const reportFolder = reportsArg ? path.resolve(reportsArg.slice('--reports='.length), path.basename(dir)) : path.join(pkgDir, 'etc');
      const dts = path.join(pkgDir, target.types);
      if (!fs.existsSync(dts)) fail(`api-report: ${dts} does not exist; run \`npm run build\` first.`);
      return { specifier: `${pkg.name}${subpath.slice(1)}`, pkgDir, dts, name, reportFolder, report: path.relative(ROOT, path.join(reportFolder, `${name}.api.md`)) };
    });
}

/** The names each entry point exports, from the TypeScript program of the declarations. */
function exportsOfEntries(program) {
  const checker = program.getTypeChecker();
  const names = new Map();
  for (const entry of allEntries) {
    const file = program.getSourceFile(entry.dts);
    const symbol = file && checker.getSymbolAtLocation(file);
    names.set(entry, new Set(symbol ? checker.getExportsOfModule(symbol).map((s) => s.getName()) : []));
  }
  return names;
}

function configFor(entry) {
  const configObject = structuredClone(baseConfig);
  configObject.projectFolder = entry.pkgDir;
  configObject.mainEntryPointFilePath = entry.dts;
  configObject.apiReport = {
    ...configObject.apiReport,
    reportFileName: entry.name,
    reportFolder: entry.reportFolder,
    reportTempFolder: path.join(tempRoot, path.basename(entry.pkgDir)),
  };
  fs.mkdirSync(entry.reportFolder, { recursive: true });
  return ExtractorConfig.prepare({
    configObject,
    configObjectFullPath: path.join(__dirname, 'api-extractor.json'),
    packageJsonFullPath: path.join(entry.pkgDir, 'package.json'),
  });
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
