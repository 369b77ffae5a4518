import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { callsImport } from '../src/compile-cache/cjsCompileCache';

/**
 * `@toolwright/server/compile-cache`, in fresh node processes on the built package (jest's
 * module registry never goes through Node's loader). Each test has its own cache directory and
 * its own modules to load.
 */
const ROOT = join(__dirname, '..', '..', '..');

interface Run {
  status: { enabled: boolean; reason?: string; directory?: string; counts?: { hits: number; misses: number } };
  output: unknown;
}

let work: string;
let cache: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'tw-compile-cache-'));
  cache = join(work, 'cache');
  mkdirSync(join(work, 'app'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

function writeModule(name: string, source: string): void {
  writeFileSync(join(work, 'app', name), source);
}

/** Imports the entry point, then requires app/main.js and prints what it exported and what the cache did. */
async function run(env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Run> {
  const script = [
    "const { compileCache } = require('@toolwright/server/compile-cache');",
    `Promise.resolve(require(${JSON.stringify(join(work, 'app', 'main.js'))}))`,
    `  .then((output) => process.stdout.write(JSON.stringify({ status: compileCache, output })));`,
  ].join('\n');
  const { stdout } = await promisify(execFile)(process.execPath, [...nodeArgs, '-e', script], {
    cwd: ROOT,
    env: { ...process.env, TOOLWRIGHT_COMPILE_CACHE: cache, ...env },
  });
  return JSON.parse(stdout) as Run;
}

describe('the compile cache', () => {
  it('compiles from source the first time and from the cache the next, with the same result', async () => {
    writeModule('main.js', "const { shout } = require('./lib');\nmodule.exports = { said: shout('hi'), dir: __dirname.endsWith('app'), resolved: require.resolve('./lib').endsWith('lib.js') };\n");
    writeModule('lib.js', "exports.shout = (s) => s.toUpperCase() + '!';\n");
    const first = await run();
    expect(first.status).toMatchObject({ enabled: true, counts: { hits: 0 } });
    expect(first.status.counts!.misses).toBeGreaterThanOrEqual(2);
    expect(first.output).toEqual({ said: 'HI!', dir: true, resolved: true });
    expect(readdirSync(first.status.directory!).filter((f) => f.endsWith('.bin')).length).toBe(first.status.counts!.misses);

    const second = await run();
    expect(second.status.counts).toEqual({ hits: first.status.counts!.misses, misses: 0 });
    expect(second.output).toEqual(first.output);
  });

  it('writes the entries of a process that keeps running a second after its last compile, not only at exit', async () => {
    writeModule('main.js', 'module.exports = 1;\n');
    const script = [
      "const { compileCache } = require('@toolwright/server/compile-cache');",
      `require(${JSON.stringify(join(work, 'app', 'main.js'))});`,
      'const count = () => require("node:fs").readdirSync(compileCache.directory).length;',
      'const early = count();',
      'setTimeout(() => { process.stdout.write(JSON.stringify([early, count()])); process.exit(0); }, 1500);',
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: ROOT, env: { ...process.env, TOOLWRIGHT_COMPILE_CACHE: cache } });
    expect(JSON.parse(stdout)).toEqual([0, 1]);
  });

  it('never runs stale code: a module changed to a source of the same length is compiled again', async () => {
    writeModule('main.js', "module.exports = 'one';\n");
    expect((await run()).output).toBe('one');
    expect((await run()).status.counts).toEqual({ hits: 1, misses: 0 });
    writeModule('main.js', "module.exports = 'two';\n");
    const changed = await run();
    expect(changed.output).toBe('two');
    expect(changed.status.counts).toEqual({ hits: 0, misses: 1 });
  });

  it('keeps the directory from growing without end: past 2000 entries, the oldest half goes', async () => {
    const dir = join(cache, `${process.version}-${process.arch}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const old = new Date(Date.now() - 86_400_000);
    for (let i = 0; i < 2000; i++) {
      writeFileSync(join(dir, `old${i}.bin`), 'x');
      utimesSync(join(dir, `old${i}.bin`), old, old);
    }
    writeModule('main.js', 'module.exports = 1;\n');
    const run1 = await run();
    const left = readdirSync(dir);
    expect(left.length).toBe(1000 + 1);
    expect(left.filter((f) => !f.startsWith('old'))).toHaveLength(1);
    expect(run1.status.counts).toEqual({ hits: 0, misses: 1 });
    expect((await run()).status.counts).toEqual({ hits: 1, misses: 0 });
  });

  it('keeps the line and column of every stack frame, also for a module with a hashbang', async () => {
    writeModule('main.js', "#!/usr/bin/env node\n'use strict';\nfunction fail() {\n  throw new Error('where');\n}\ntry { fail(); } catch (error) { module.exports = error.stack.split('\\n')[1].trim(); }\n");
    const uncached = await run({ TOOLWRIGHT_COMPILE_CACHE: 'off' });
    expect(uncached.status.enabled).toBe(false);
    expect(uncached.output).toMatch(/main\.js:4:9\)$/);
    await run();
    const cached = await run();
    expect(cached.status.counts!.hits).toBe(1);
    expect(cached.output).toBe(uncached.output);
  });

  it("leaves a module it cannot compile to Node, which reports the syntax error its own way", async () => {
    writeModule('main.js', "try { require('./broken'); } catch (error) { module.exports = `${error.name}: ${error.message}`; }\n");
    writeModule('broken.js', 'module.exports = {;\n');
    expect((await run()).output).toMatch(/^SyntaxError: Unexpected token/);
  });

  it('leaves a module that calls import() to Node, whose compile sets up dynamic import', async () => {
    writeModule('main.js', "module.exports = import('./esm.mjs').then((m) => m.answer);\n");
    writeModule('esm.mjs', 'export const answer = 42;\n');
    await run();
    const again = await run();
    expect(again.status.counts).toEqual({ hits: 0, misses: 0 });
    expect(again.output).toBe(42);
  });

  it.each([
    ["import('./x')", true],
    ['const m = await import(url);', true],
    ["x = 'import(' + y", true],
    ["if(a){import('b')}", true],
    ["/* a */ import('x')", true],
    ["*/ import('x')", true],
    ['container.import(services)', false],
    ['  static import(services) {', false],
    ["  // an inline `import()` of a path", false],
    ["\t * @param {import('../types').Options} options", false],
    ['reimport(x)', false],
  ])('tells whether %j may call import(): %s', (source, expected) => {
    expect(callsImport(`const a = 1;\n${source}\n`)).toBe(expected);
  });

  it('refuses a directory other users can write into, since its entries become code', async () => {
    writeModule('main.js', 'module.exports = 1;\n');
    const dir = join(cache, `${process.version}-${process.arch}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o777);
    const refused = await run();
    expect(refused.status).toEqual({ enabled: false, reason: `${dir} is writable by other users; make it private (chmod 700) or set TOOLWRIGHT_COMPILE_CACHE to another directory.` });
    expect(refused.output).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a cache directory inside one other users can write into', async () => {
    writeModule('main.js', 'module.exports = 1;\n');
    mkdirSync(cache);
    chmodSync(cache, 0o777);
    const refused = await run();
    expect(refused.status).toEqual({ enabled: false, reason: `${cache} is writable by other users; make it private (chmod 700) or set TOOLWRIGHT_COMPILE_CACHE to another directory.` });
    expect(refused.output).toBe(1);
  });

  it.each([
    [{ TOOLWRIGHT_COMPILE_CACHE: 'off' }, [], 'TOOLWRIGHT_COMPILE_CACHE is off.'],
    [{ NODE_DISABLE_COMPILE_CACHE: '1' }, [], 'NODE_DISABLE_COMPILE_CACHE is set.'],
    [{}, ['--enable-source-maps'], '--enable-source-maps is on, and it needs Node to compile each module itself.'],
  ])('is off with %j %j', async (env, nodeArgs, reason) => {
    writeModule('main.js', 'module.exports = 1;\n');
    expect((await run(env, nodeArgs)).status).toEqual({ enabled: false, reason });
  });

  it('is the first import of every generated server entry file', () => {
    for (const file of ['packages/cli/templates/common/src/server.ts.tpl', 'packages/cli/templates/http/src/server.ts.tpl', 'examples/conformance/src/server.ts']) {
      expect(readFileSync(join(ROOT, file), 'utf8').split('\n')[1]).toMatch(/^import '@toolwright\/server\/compile-cache';/);
    }
  });
});
