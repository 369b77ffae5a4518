import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';

/**
 * How scripts/bundleWorker.mjs writes the functions a Worker's start runs so that V8 compiles them
 * with the script (compileWithScript, the hints in scripts/worker-compile-hints.json): what the
 * rewrite does to each kind of function, that the functions written so in the example's Worker are
 * those the hints name, that the Worker still answers both eras as the Worker without them does,
 * that its source map still leads each function to its source, and that the hints are those a
 * start runs now (bench/edge/record-compile-hints.mjs --check). Needs dist/ (`tsc -b`) and
 * `npm run build` at the repository's root.
 */
const ROOT = join(__dirname, '..');
const REPO = join(ROOT, '..', '..');
const BUNDLER = join(ROOT, 'scripts', 'bundleWorker.mjs');
const HINTS = JSON.parse(readFileSync(join(ROOT, 'scripts', 'worker-compile-hints.json'), 'utf8')) as { functions: string[] };
const ENTRY = "import 'reflect-metadata';\nimport worker from './dist/worker.js';\nexport default worker.default;\n";

let dir: string;
// Inside the example, so the files written here resolve its packages.
beforeAll(() => (dir = mkdtempSync(join(ROOT, '.compile-test-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `script` (ES module source, with the bundler's exports `bundleWorker`, `compileWithScript` and `compilableFunctions` in scope, and `ts`) in node; its stdout. */
function run(script: string): string {
  const source = `import { bundleWorker, compileWithScript, compilableFunctions } from ${JSON.stringify(`file://${BUNDLER}`)};\nimport ts from 'typescript';\n${script}`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8' });
}

/** The example's Worker, bundled into `<name>.mjs` with the hints (or none): its path. */
function bundled(name: string, hints: boolean): string {
  const outfile = join(dir, `${name}.mjs`);
  run(`await bundleWorker({ entry: ${JSON.stringify(ENTRY)}, resolveDir: ${JSON.stringify(ROOT)}, outfile: ${JSON.stringify(outfile)}${hints ? '' : ', compileHints: false'} });`);
  return outfile;
}

let workers: { plain: string; hinted: string } | undefined;
/** The example's Worker bundled without hints and with them (built once): their paths. */
function exampleWorkers(): { plain: string; hinted: string } {
  workers ??= { plain: bundled('plain', false), hinted: bundled('hinted', true) };
  return workers;
}

/** The keys (compilableFunctions) of the functions of `file` that are `how` (one of `hows`), sorted, once per function. */
function keysOf(file: string, hows: (string | undefined)[]): string[] {
  return (
    JSON.parse(
      run(
        `const text = (await import('node:fs')).readFileSync(${JSON.stringify(file)}, 'utf8');
      const found = compilableFunctions(ts, ts.createSourceFile('w.mjs', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS));
      console.log(JSON.stringify(found.filter((f) => ${JSON.stringify(hows)}.includes(f.how ?? null)).map((f) => f.key)));`,
      ),
    ) as string[]
  ).sort();
}

/** Loads the Worker in `file` in node and sends it a tools/call of `repeat` in `era`: the status and the body. */
function callRepeat(file: string, era: '2026-07-28' | '2025-11-25'): string {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' } };
  const params = { name: 'repeat', arguments: { note: 'hi', count: 2 }, ...(era === '2026-07-28' ? { _meta: meta } : {}) };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': era,
    ...(era === '2026-07-28' ? { 'mcp-method': 'tools/call', 'mcp-name': 'repeat' } : {}),
  };
  const request = `new Request('http://127.0.0.1/mcp', { method: 'POST', body: ${JSON.stringify(body)}, headers: ${JSON.stringify(headers)} })`;
  const script = `globalThis.process.getBuiltinModule ??= (id) => require(id);
import(${JSON.stringify(`file://${file}`)}).then((m) => m.default.fetch(${request}, {})).then(async (response) => console.log(response.status, await response.text()));`;
  return execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
}

describe('functions written to compile with the Worker script', () => {
  it('writes a declaration as a parenthesized expression at the top of its scope, an expression and a module wrapper in parentheses, and nothing the hints do not name', () => {
    const text = [
      'use(outer());',
      'function outer(){return inner()+1;function inner(){return 1}}',
      'function cold(){return 0}',
      'var late=2;',
      'var g=function(){return 3};',
      'var lib=__commonJS({"node_modules/x/index.js"(exports,module){"use strict";module.exports=h;function h(){return 4}}});',
      'async function* gen(){yield 5}',
    ].join('');
    const hints = ['outer', 'outer/inner', 'g', '__commonJS:x/index.js', '__commonJS:x/index.js/h', 'gen'];
    const out = JSON.parse(run(`console.log(JSON.stringify(compileWithScript(ts, ${JSON.stringify(text)}, 'AAAA', new Set(${JSON.stringify(hints)}))));`)) as { text: string; written: number };
    expect(out.written).toBe(6);
    expect(out.text).toBe(
      [
        'var outer=(function(){var inner=(function(){return 1});return inner()+1;});var gen=(async function*(){yield 5});',
        'use(outer());',
        '',
        'function cold(){return 0}',
        'var late=2;',
        'var g=(function(){return 3});',
        'var lib=__commonJS({"node_modules/x/index.js":(function(exports,module){"use strict";var h=(function(){return 4});module.exports=h;})});',
        '',
      ].join(''),
    );
    // Both mean the same: the functions are there before the first statement runs, under their names.
    const evaluate = (source: string) =>
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const seen = []; const use = (v) => seen.push(v); const __commonJS = (o) => { const m = { exports: {} }; Object.values(o)[0](m.exports, m); return m.exports; };
          ${source}
          const yielded = []; for await (const v of gen()) yielded.push(v);
          console.log(JSON.stringify({ seen, lib: lib(), g: g(), yielded, names: [outer.name, g.name, lib.name, gen.name, cold.name] }));`,
        ],
        { encoding: 'utf8' },
      );
    expect(evaluate(out.text)).toBe(evaluate(text));
    expect(JSON.parse(evaluate(out.text))).toEqual({ seen: [2], lib: 4, g: 3, yielded: [5], names: ['outer', 'g', 'h', 'gen', 'cold'] });
  });

  it("writes so exactly the functions of the example's Worker that the hints name, and the Worker answers both eras as the one without them", () => {
    const { plain, hinted } = exampleWorkers();
    const hints = new Set(HINTS.functions);
    const expected = keysOf(plain, ['declaration', 'expression', 'wrapper']).filter((key) => hints.has(key));
    const already = keysOf(plain, ['written']);
    const written = keysOf(hinted, ['written']);
    // What esbuild itself wrote in parentheses stays so; every function the hints name is written so too, and no other.
    const added = [...written];
    for (const key of already) added.splice(added.indexOf(key), 1);
    expect(added).toEqual(expected);
    expect(expected.length).toBeGreaterThan(300);
    // The declarations are all gone from where they were (a declaration named by the hints left behind would be compiled lazily).
    expect(keysOf(hinted, ['declaration', 'expression', 'wrapper']).filter((key) => hints.has(key))).toEqual([]);
    for (const era of ['2026-07-28', '2025-11-25'] as const) {
      const answer = callRepeat(hinted, era);
      expect(answer).toMatch(new RegExp(`^200 .*"text":"${era === '2026-07-28' ? 'modern' : 'legacy'}: hi hi"`, 's'));
      expect(answer).toBe(callRepeat(plain, era));
    }
  });

  it('keeps the source map: a function moved to the top of its scope still leads to its line in the TypeScript', () => {
    const { plain, hinted } = exampleWorkers();
    const origin = (file: string, pattern: RegExp) => {
      const text = readFileSync(file, 'utf8');
      const at = text.search(pattern);
      expect(at).toBeGreaterThan(0);
      const lines = text.slice(0, at).split('\n');
      const map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
      const entry = map.findEntry(lines.length - 1, lines[lines.length - 1].length) as { originalSource: string; originalLine: number };
      return { source: entry.originalSource.replace(/^.*packages\//, ''), line: entry.originalLine };
    };
    // createApp: a declaration the hints name, moved to the script's top.
    expect(HINTS.functions).toContain('createApp');
    const before = origin(plain, /(?<![\w$])(?:async )?function createApp\(/);
    expect(before.source).toBe('server/src/app/createApp.ts');
    expect(origin(hinted, /(?<=[;}]var createApp=\()(?:async )?function\(/)).toEqual(before);
  });

  it('holds the hints a start runs now (bench/edge/record-compile-hints.mjs --check), the same in the edge template', () => {
    expect(readFileSync(join(REPO, 'packages', 'cli', 'templates', 'edge', 'scripts', 'worker-compile-hints.json.tpl'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'scripts', 'worker-compile-hints.json'), 'utf8'),
    );
    expect(execFileSync(process.execPath, [join(REPO, 'bench', 'edge', 'record-compile-hints.mjs'), '--check'], { cwd: REPO, encoding: 'utf8' })).toContain('up to date');
  });
});
