#!/usr/bin/env node
'use strict';
// Records scripts/compile-hints.json: the module-level functions of the package bundles that a stdio
// start of the weather example runs, in both protocol eras, up to its first calls. The bundler
// (scripts/compileWithFile.js) has V8 compile those with their bundle, so on Node 22+ they come
// from the compile cache instead of being compiled at every start.
//   node scripts/record-compile-hints.js           write the file (then `npm run build`)
//   node scripts/record-compile-hints.js --check   exit 1 if the file is not what a start runs now
// Needs the build (`npm run build`). Each start runs with NODE_V8_COVERAGE: V8's function coverage
// counts the calls of every function, whether V8 compiled it with the file or on its first call.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fileURLToPath } = require('node:url');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..');
const HINTS = path.join(__dirname, 'compile-hints.json');
const SERVER = path.join(ROOT, 'examples/weather/dist/server.js');
const BUNDLES = ['packages/core/bundle', 'packages/server/bundle'].map((dir) => path.join(ROOT, dir));

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'record-compile-hints', version: '1' },
};
const CALLS = [
  ['search_notes', { query: 'tokyo', filters: { tags: ['weather'] } }],
  ['get_weather', { location: 'Tokyo' }],
];
/** Each era's first requests: what a client sends on connecting, then a list and a call of each tool. */
const STARTS = {
  '2025-11-25': [
    { method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: META['io.modelcontextprotocol/clientInfo'] } },
    { method: 'notifications/initialized' },
    { method: 'tools/list', params: {} },
    ...CALLS.map(([name, args]) => ({ method: 'tools/call', params: { name, arguments: args } })),
  ],
  '2026-07-28': [
    { method: 'server/discover', params: { _meta: META } },
    { method: 'tools/list', params: { _meta: META } },
    ...CALLS.map(([name, args]) => ({ method: 'tools/call', params: { name, arguments: args, _meta: META } })),
  ],
};

function record() {
  const hints = {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compile-hints-'));
  try {
    for (const [era, messages] of Object.entries(STARTS)) {
      const coverage = path.join(dir, era);
      const input = messages.map((m, id) => JSON.stringify({ jsonrpc: '2.0', ...(m.method.startsWith('notifications/') ? {} : { id }), ...m })).join('\n');
      const run = spawnSync(process.execPath, [SERVER], { input: `${input}\n`, encoding: 'utf8', env: { ...process.env, NODE_V8_COVERAGE: coverage } });
      const answers = run.stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line));
      const expected = messages.filter((m) => !m.method.startsWith('notifications/')).length;
      if (run.status !== 0 || answers.length !== expected || answers.some((a) => a.error || a.result?.isError)) {
        throw new Error(`${era}: the example did not answer every request (exit ${run.status}): ${run.stdout}${run.stderr}`);
      }
      for (const [file, ends] of calledFunctionEnds(coverage)) {
        for (const [module, name] of moduleFunctions(file, ends)) (hints[module] ??= new Set()).add(name);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return Object.fromEntries(
    Object.keys(hints)
      .sort()
      .map((module) => [module, [...hints[module]].sort()]),
  );
}

/** Per bundle file of ours, the end offsets of the functions that were called (V8's coverage files in `dir`). */
function calledFunctionEnds(dir) {
  const ends = new Map();
  for (const name of fs.readdirSync(dir)) {
    for (const { url, functions } of JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')).result) {
      const file = url.startsWith('file://') ? fileURLToPath(url) : url;
      if (!BUNDLES.some((bundle) => file.startsWith(`${bundle}${path.sep}`))) continue;
      if (!ends.has(file)) ends.set(file, new Set());
      for (const { ranges } of functions) if (ranges[0].count > 0) ends.get(file).add(ranges[0].endOffset);
    }
  }
  return ends;
}

/** [module, function name] of each module-level function of `file` whose end is in `ends`, declared or already hoisted. */
function moduleFunctions(file, ends) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found = [];
  const visit = (node) => {
    if (ts.isParenthesizedExpression(node) && ts.isFunctionExpression(node.expression) && ts.isPropertyAssignment(node.parent)) {
      const module = JSON.parse(node.parent.name.getText(source));
      for (const statement of node.expression.body.statements) {
        const fn = ts.isFunctionDeclaration(statement) ? statement : hoistedFunction(statement);
        if (fn?.name && (ends.has(fn.end) || ends.has(fn.end - 1))) found.push([module, fn.name.text]);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The function of `var f=(function f(...){...});`, as scripts/compileWithFile.js writes a hinted one. */
function hoistedFunction(statement) {
  if (!ts.isVariableStatement(statement)) return undefined;
  const [declaration] = statement.declarationList.declarations;
  const init = declaration?.initializer;
  return init && ts.isParenthesizedExpression(init) && ts.isFunctionExpression(init.expression) ? init.expression : undefined;
}

const recorded = record();
if (process.argv.includes('--check')) {
  if (JSON.stringify(JSON.parse(fs.readFileSync(HINTS, 'utf8'))) !== JSON.stringify(recorded)) {
    console.error('scripts/compile-hints.json is not what a stdio start runs now. Record it again with `node scripts/record-compile-hints.js`, then `npm run build`.');
    process.exit(1);
  }
} else {
  fs.writeFileSync(HINTS, `${JSON.stringify(recorded, null, 2)}\n`);
  console.log(`wrote ${path.relative(ROOT, HINTS)}: ${Object.values(recorded).flat().length} functions; now run \`npm run build\``);
}
