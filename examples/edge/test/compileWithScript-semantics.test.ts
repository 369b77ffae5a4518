import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** compileWithScript's rewrite keeps what each script means: real runs of the original and the rewritten script, compared. */
const ROOT = join(__dirname, '..');
const BUNDLER = join(ROOT, 'scripts', 'bundleWorker.mjs');
let dir: string;
beforeAll(() => (dir = mkdtempSync(join(ROOT, '.compile-semantics-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function node(script: string, args: string[] = []): string {
  return execFileSync(process.execPath, [...args, '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
}

/** `text` rewritten with every function compilableFunctions finds hinted (or only `only`). */
function rewrite(text: string, only?: string[]): { text: string; written: number; keys: string[] } {
  return JSON.parse(
    node(`import { compileWithScript, compilableFunctions } from ${JSON.stringify(`file://${BUNDLER}`)};
import ts from 'typescript';
const text = ${JSON.stringify(text)};
const keys = compilableFunctions(ts, ts.createSourceFile('w.mjs', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS)).map((f) => f.key + ' ' + f.how);
const hints = new Set(${JSON.stringify(only ?? null)} ?? keys.map((k) => k.split(' ')[0]));
const out = compileWithScript(ts, text, 'AAAA', hints);
console.log(JSON.stringify({ ...out, keys }));`),
  ) as { text: string; written: number; keys: string[] };
}

function evaluate(source: string): string {
  const file = join(dir, `e${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, source);
  const r = spawnSync(process.execPath, [file], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout : `exit ${r.status}: ${r.stderr.split('\n').filter((l) => /Error/.test(l))[0]}`;
}

describe('compileWithScript', () => {
  const cases: Record<string, string> = {
    paramDefaultShadow: 'function g(f = 1, h = () => f){ function f(){ return 2 } return [typeof f, h()] } console.log(JSON.stringify(g()));',
    reassigned: 'var other = () => "other"; function g(){ var r = [f()]; f = other; r.push(f()); return r; function f(){ return "f" } } console.log(JSON.stringify(g()));',
    varBefore: 'function g(){ var f = 1; var a = f; function f(){} return [a, typeof f] } console.log(JSON.stringify(g()));',
    blockAndSwitch:
      'function g(x){ const r = []; if (x) { function f(){ return "block" } r.push(f()) } switch (x) { case 1: function k(){ return "case" } r.push(k()) } return r } console.log(JSON.stringify(g(1)));',
    thisArgsNewTarget:
      'function g(){ return h.call({ v: 7 }, 1, 2); function h(){ return [this.v, arguments.length, new.target === undefined] } } function C(){ this.t = typeof new.target } console.log(JSON.stringify([g(), new C().t]));',
    generatorAsync:
      'function outer(){ return [...gen(3)]; function* gen(n){ for (let i = 0; i < n; i++) yield i } } async function a(){ return 1 } a().then((v) => console.log(JSON.stringify([outer(), v, a.name, outer.name])));',
    letShadowInner: 'function g(){ const r = []; { let f = 1; r.push(f) } r.push(typeof f); return r; function f(){} } console.log(JSON.stringify(g()));',
    // Its source text (String(f)) loses the name: `function(a, b){}`; what code reads of a function is the same.
    nameAndLength: 'function g(){ return [f.name, f.length, Object.hasOwn(f, "prototype")]; function f(a, b){} } console.log(JSON.stringify(g()));',
    directive: 'function g(){ "use strict"; return f(); function f(){ return typeof this } } console.log(JSON.stringify(g()));',
  };
  it.each(Object.keys(cases))('%s means what it meant', (name) => {
    const out = rewrite(cases[name]);
    expect({ name, out: evaluate(out.text) }).toEqual({ name, out: evaluate(cases[name]) });
  });

  it('leaves an __esm wrapper of a module with top-level await (esbuild writes `async "path"(){...}`) as it is: valid JavaScript', () => {
    // What esbuild writes for a lazily run ES module that awaits at its top (checked with esbuild in this repo).
    const text = 'var v;var init_a=__esm({async"node_modules/pkg/a.mjs"(){v=await Promise.resolve(1)}});';
    const out = rewrite(text, ['__esm:pkg/a.mjs']);
    expect(out.keys).toContain('__esm:pkg/a.mjs undefined');
    expect(out.text).toBe(text);
    const check = spawnSync(process.execPath, ['--check', '--input-type=module'], { input: out.text, encoding: 'utf8' });
    expect({ text: out.text, status: check.status }).toEqual({ text: out.text, status: 0 });
  });
});

describe('the source map of a moved function, with a real thrown error', () => {
  it('the stack of an error thrown in a moved function names its original line and column', () => {
    const src = join(dir, 'lib.js');
    writeFileSync(
      src,
      [
        'export function entry(x) {',
        '  return helper(x) + other(x);',
        '}',
        'function other(x) {',
        '  return x;',
        '}',
        'function helper(x) {',
        '  const y = x + 1;',
        '  if (y > 0) {',
        "    throw new Error('boom ' + y);",
        '  }',
        '  return nested(y);',
        '  function nested(z) {',
        "    throw new Error('deep ' + z);",
        '  }',
        '}',
        'export function entry2(x) {',
        '  return helper2(x);',
        '  function helper2(x) {',
        '    return nested2(x);',
        '    function nested2(z) {',
        "      throw new Error('deeper ' + z);",
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const frames = (hints: string[] | null) =>
      node(
        `import { build } from 'esbuild';
import ts from 'typescript';
import { writeFileSync } from 'node:fs';
import { compileWithScript } from ${JSON.stringify(`file://${BUNDLER}`)};
const out = ${JSON.stringify(join(dir, 'out'))} + (${JSON.stringify(hints)} ? 'h' : 'p') + '.mjs';
const r = await build({ entryPoints: [${JSON.stringify(src)}], bundle: true, format: 'esm', minifyWhitespace: true, sourcemap: 'linked', write: false, outfile: out, logLevel: 'silent' });
const script = r.outputFiles.find((f) => !f.path.endsWith('.map'));
const map = JSON.parse(r.outputFiles.find((f) => f.path.endsWith('.map')).text);
let text = script.text;
if (${JSON.stringify(hints)}) { const c = compileWithScript(ts, text, map.mappings, new Set(${JSON.stringify(hints)})); text = c.text; map.mappings = c.mappings; }
writeFileSync(out, text); writeFileSync(out + '.map', JSON.stringify(map));
const m = await import(out);
const lines = [];
for (const [f, arg] of [['entry', 1], ['entry', -1], ['entry2', 0]]) { try { m[f](arg) } catch (e) { lines.push(e.stack.split('\\n').slice(0, 3).map((l) => l.trim().replace(/\\(.*[\\\\/]/, '(')).join(' | ')) } }
console.log(JSON.stringify({ text, lines }));`,
        ['--enable-source-maps'],
      );
    const plain = JSON.parse(frames(null)) as { text: string; lines: string[] };
    const hinted = JSON.parse(frames(['helper', 'helper/nested', 'entry2/helper2', 'entry2/helper2/nested2'])) as { text: string; lines: string[] };
    expect(hinted.text).toContain('var helper=(function');
    expect(plain.lines[0]).toContain('lib.js:10:');
    expect(hinted.lines).toEqual(plain.lines);
  });
});
