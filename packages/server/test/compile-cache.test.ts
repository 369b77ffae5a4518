import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * `@toolwright/server/compile-cache`, in fresh node processes on the built package (jest's
 * module registry never goes through Node's loader). It turns on Node's own cache
 * (`module.enableCompileCache`, Node 22.8+); on Node 20 it says why there is none. The suite
 * runs on Node 20 with `npm test` and on 22 and 24 with `npm run test:nodes`.
 */
const ROOT = join(__dirname, '..', '..', '..');
/** Whether this Node has `module.enableCompileCache` (22.8 and later; this repo's Node 22 range starts at 22.12). */
const HAS_NODE_CACHE = typeof (require('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';

interface Run {
  status: { enabled: boolean; reason?: string; directory?: string };
  output: unknown;
}

let work: string;
let cache: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'tw-compile-cache-'));
  cache = join(work, 'cache');
  mkdirSync(join(work, 'app'));
  writeFileSync(join(work, 'app', 'main.js'), "const { shout } = require('./lib');\nmodule.exports = { said: shout('hi') };\n");
  writeFileSync(join(work, 'app', 'lib.js'), "exports.shout = (s) => s.toUpperCase() + '!';\n");
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** Imports the entry point, then requires app/main.js and prints what it exported and what the entry point did. */
async function run(env: Record<string, string> = {}): Promise<Run> {
  const script = [
    "const { compileCache } = require('@toolwright/server/compile-cache');",
    `const output = require(${JSON.stringify(join(work, 'app', 'main.js'))});`,
    'process.stdout.write(JSON.stringify({ status: compileCache, output }));',
  ].join('\n');
  const childEnv: Record<string, string | undefined> = { ...process.env, TOOLWRIGHT_COMPILE_CACHE: cache, ...env };
  delete childEnv.NODE_COMPILE_CACHE;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: ROOT, env: childEnv });
  return JSON.parse(stdout) as Run;
}

describe('the compile cache entry point', () => {
  (HAS_NODE_CACHE ? it : it.skip)("turns on Node's cache in TOOLWRIGHT_COMPILE_CACHE, which the next start reads, with the same result", async () => {
    const first = await run();
    expect(first.status).toEqual({ enabled: true, directory: expect.stringContaining(cache) });
    expect(first.output).toEqual({ said: 'HI!' });
    expect(readdirSync(cache).length).toBeGreaterThan(0);
    const second = await run();
    expect(second).toEqual(first);
  });

  (HAS_NODE_CACHE ? it.skip : it)('says why there is no cache on a Node without one, and changes nothing else', async () => {
    const run20 = await run();
    expect(run20.status).toEqual({ enabled: false, reason: expect.stringContaining('module.enableCompileCache needs Node 22.8 or later') });
    expect(run20.output).toEqual({ said: 'HI!' });
  });

  it.each([
    [{ TOOLWRIGHT_COMPILE_CACHE: 'off' }, 'TOOLWRIGHT_COMPILE_CACHE is off.'],
    [{ NODE_DISABLE_COMPILE_CACHE: '1' }, 'NODE_DISABLE_COMPILE_CACHE is set.'],
  ])('is off with %j', async (env, reason) => {
    expect((await run(env)).status).toEqual({ enabled: false, reason });
  });

  it('is the first import of every generated server entry file', () => {
    for (const file of ['packages/cli/templates/common/src/server.ts.tpl', 'packages/cli/templates/http/src/server.ts.tpl', 'examples/conformance/src/server.ts']) {
      expect(readFileSync(join(ROOT, file), 'utf8').split('\n')[1]).toMatch(/^import '@toolwright\/server\/compile-cache';/);
    }
  });
});
