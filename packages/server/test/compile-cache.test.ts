import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

/**
 * `@toolwright/server/compile-cache`, in fresh node processes on the built package (jest's
 * module registry never goes through Node's loader). It turns on Node's own cache
 * (`module.enableCompileCache`, Node 22.8+); on Node 20 it says why there is none. The suite
 * runs on Node 20 with `npm test` and on 22, 24 and 26 with `npm run test:nodes`.
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
  // Enough code that V8's cached data for it is a sizeable entry.
  const functions = Array.from({ length: 300 }, (_, i) => `exports.f${i} = function f${i}(a, b) { const x = [a, b, ${i}]; return x.map((v) => v * 2).reduce((p, q) => p + q, 0); };`);
  writeFileSync(join(work, 'app', 'lib.js'), ["exports.shout = (s) => s.toUpperCase() + '!';", ...functions, ''].join('\n'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** Imports the entry point, then requires app/main.js and prints what it exported and what the entry point did. */
async function run(env: Record<string, string> = {}, node = process.execPath): Promise<Run> {
  const started = start(env, node);
  if (started.status !== 0) throw new Error(`node ended with ${started.status ?? started.signal}:\n${started.stderr}`);
  return JSON.parse(started.stdout) as Run;
}

/** One start, whatever its end: the exit status (null after a signal), the signal, and both outputs. */
function start(env: Record<string, string | undefined>, node: string): { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  const script = [
    "const { compileCache } = require('@toolwright/server/compile-cache');",
    `const output = require(${JSON.stringify(join(work, 'app', 'main.js'))});`,
    'process.stdout.write(JSON.stringify({ status: compileCache, output }));',
  ].join('\n');
  const childEnv: Record<string, string | undefined> = { ...process.env, TOOLWRIGHT_COMPILE_CACHE: cache, NODE_DEBUG_NATIVE: undefined, ...env };
  if (!('NODE_COMPILE_CACHE' in env)) delete childEnv.NODE_COMPILE_CACHE;
  const { status, signal, stdout, stderr } = spawnSync(node, ['-e', script], { cwd: ROOT, env: childEnv, encoding: 'utf8' });
  return { status, signal, stdout, stderr };
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

/**
 * Issue 31 #11: what a damaged or planted cache entry does, on Node 24 (the npm `node` package,
 * as `npm run test:nodes` runs it) whatever Node runs jest. An entry is a 20-byte header (magic,
 * code size, cache size, code hash, cache hash: CRC32s) and V8's cached data.
 */
describe("the compile cache's entries, on Node 24", () => {
  const { nodeBinary } = require(join(ROOT, 'scripts', 'nodeVersions.js')) as { nodeBinary: (major: string) => string };
  let node24: string;
  beforeAll(() => {
    node24 = nodeBinary('24');
  }, 300_000);

  const entries = (directory: string): string[] => readdirSync(directory).flatMap((version) => readdirSync(join(directory, version)).map((entry) => join(directory, version, entry)));
  /** Entries whose cached data is changed in the middle with the header's checksum made to match, as only a writer of the directory can. */
  const plant = (directory: string): void => {
    for (const file of entries(directory)) {
      const bytes = readFileSync(file);
      const middle = 20 + Math.floor((bytes.length - 20) / 3);
      for (let i = middle; i < Math.min(middle + 16, bytes.length); i++) bytes[i] ^= 0x5a;
      bytes.writeUInt32LE(crc32(bytes.subarray(20)) >>> 0, 16);
      writeFileSync(file, bytes);
    }
  };
  const fine = { said: 'HI!' };

  it.each([
    ['the magic number', (b: Buffer) => flip(b, 0)],
    ['the code hash', (b: Buffer) => flip(b, 12)],
    ['the checksum', (b: Buffer) => flip(b, 16)],
    ['the first byte of the data', (b: Buffer) => flip(b, 20)],
    ['the middle', (b: Buffer) => flip(b, Math.floor(b.length / 2))],
    ['the last byte', (b: Buffer) => flip(b, b.length - 1)],
    ['a cut inside the header', (b: Buffer) => b.subarray(0, 10)],
    ['a cut in the middle', (b: Buffer) => b.subarray(0, Math.floor(b.length / 2))],
    ['an empty file', () => Buffer.alloc(0)],
    ['bytes appended', (b: Buffer) => Buffer.concat([b, Buffer.from('garbage')])],
  ])('rejects an entry damaged at %s (Node checks it): the start compiles afresh, runs right, and mends the entry', async (_where, damage) => {
    expect((await run({}, node24)).status.enabled).toBe(true);
    const files = entries(cache);
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const file of files) writeFileSync(file, damage(readFileSync(file)));
    const damaged = start({ NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }, node24);
    expect({ status: damaged.status, signal: damaged.signal }).toEqual({ status: 0, signal: null });
    expect(JSON.parse(damaged.stdout)).toEqual({ status: { enabled: true, directory: expect.stringContaining(cache) }, output: fine });
    expect(damaged.stderr).toMatch(/mismatch|reading header failed/);
    expect(damaged.stderr).not.toContain('was accepted');
    const next = start({ NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }, node24);
    expect(JSON.parse(next.stdout).output).toEqual(fine);
    expect(next.stderr.match(/V8 code cache for CommonJS .* was accepted/g)).toHaveLength(files.length);
  });

  it('keeps the cache off in a directory other users can write, where a planted entry with a valid checksum aborts V8', async () => {
    const filled = join(work, 'filled');
    expect((await run({ TOOLWRIGHT_COMPILE_CACHE: filled }, node24)).status.enabled).toBe(true);
    const shared = join(work, 'shared');
    cpSync(filled, shared, { recursive: true });
    plant(shared);
    chmodSync(shared, 0o777);
    // The threat: Node's own switch reads the planted entries, and the process dies (or runs something else).
    const nodeOnly = start({ TOOLWRIGHT_COMPILE_CACHE: 'off', NODE_COMPILE_CACHE: shared }, node24);
    expect(nodeOnly.status === 0 && nodeOnly.stdout.includes('"said":"HI!"')).toBe(false);
    // Toolwright refuses the directory and starts without a cache.
    const refused = start({ TOOLWRIGHT_COMPILE_CACHE: shared }, node24);
    expect({ status: refused.status, signal: refused.signal }).toEqual({ status: 0, signal: null });
    expect(JSON.parse(refused.stdout)).toEqual({
      status: {
        enabled: false,
        reason: `The compile cache stays off: ${shared} can be written by other users (mode 777): they could put compiled code in it that this server would run. Point TOOLWRIGHT_COMPILE_CACHE at a directory only this user can write (mkdir -m 700 <dir>), or set it to off.`,
      },
      output: fine,
    });
    expect(refused.stderr).toContain('[TOOLWRIGHT_COMPILE_CACHE] Warning: The compile cache stays off');
  });

  it('refuses a symbolic link, and a folder or entry that belongs to another user (as root: chown)', async () => {
    const filled = join(work, 'filled');
    expect((await run({ TOOLWRIGHT_COMPILE_CACHE: filled }, node24)).status.enabled).toBe(true);
    const link = join(work, 'link');
    symlinkSync(filled, link);
    expect((await run({ TOOLWRIGHT_COMPILE_CACHE: link }, node24)).status).toEqual({ enabled: false, reason: expect.stringContaining(`${link} is a symbolic link`) });
    if (process.getuid?.() !== 0) return;
    const [version] = readdirSync(filled);
    chownSync(join(filled, version), 65534, 65534);
    expect((await run({ TOOLWRIGHT_COMPILE_CACHE: filled }, node24)).status).toEqual({
      enabled: false,
      reason: expect.stringContaining(`${join(filled, version)} belongs to user 65534, not to this process's user 0`),
    });
    chownSync(join(filled, version), 0, 0);
    // A directory others may enter: each entry is looked at too.
    chmodSync(filled, 0o755);
    const [entry] = entries(filled);
    chownSync(entry, 65534, 65534);
    expect((await run({ TOOLWRIGHT_COMPILE_CACHE: filled }, node24)).status).toEqual({ enabled: false, reason: expect.stringContaining(`${entry} belongs to user 65534`) });
  });

  it("defaults to a directory of this user's own in the temporary directory, created private (mode 700)", async () => {
    const first = await run({ TOOLWRIGHT_COMPILE_CACHE: '', TMPDIR: work }, node24);
    const directory = join(work, `toolwright-compile-cache-${process.getuid?.() ?? ''}`.replace(/-$/, ''));
    expect(first.status).toEqual({ enabled: true, directory: expect.stringContaining(directory) });
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    expect(await run({ TOOLWRIGHT_COMPILE_CACHE: '', TMPDIR: work }, node24)).toEqual(first);
  });
});

function flip(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] ^= 0xff;
  return copy;
}
