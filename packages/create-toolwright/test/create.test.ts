import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const BIN = join(__dirname, '..', 'dist', 'bin.js');

describe('npm create toolwright (the create-toolwright binary)', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'create-toolwright-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('is toolwright new: same flags, same project', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'lib', '--template', 'full', '--name', '@acme/lib', '--registry'], { cwd: tmp });
    expect(stdout).toContain('Created @acme/lib from the full template in lib');
    expect(JSON.parse(readFileSync(join(tmp, 'lib', 'package.json'), 'utf8')).name).toBe('@acme/lib');
    expect(existsSync(join(tmp, 'lib', 'src', 'library.tools.ts'))).toBe(true);
  });

  it('exits 2 and writes nothing on an invalid template', async () => {
    await expect(promisify(execFile)(process.execPath, [BIN, 'x', '--template', 'nope'], { cwd: tmp })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("Unknown --template 'nope'"),
    });
    expect(existsSync(join(tmp, 'x'))).toBe(false);
  });

  // It printed 'Usage: toolwright new <dir> [options]': `toolwright` is not installed on this route.
  it('--help shows how to run it through npm create', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, '--help'], { cwd: tmp });
    expect(stdout).toMatch(/^Usage: npm create toolwright@latest -- <dir> \[options\]\n/);
    expect(stdout).not.toContain('toolwright new');
  });

  // `toolwright` is not installed on this route: a message that named 'toolwright new' sent the user to a missing command.
  it.each([
    [[], "Missing <dir>: where to create the project, e.g. 'npm create toolwright@latest -- my-server'."],
    [['x', '--colour'], "Unknown option '--colour'. See 'npm create toolwright@latest -- --help'."],
  ])('names npm create in its messages, not toolwright (%j)', async (argv, message) => {
    await expect(promisify(execFile)(process.execPath, [BIN, ...argv], { cwd: tmp })).rejects.toMatchObject({
      code: 2,
      stderr: `error: ${message}\n`,
    });
    expect(existsSync(join(tmp, 'x'))).toBe(false);
  });
});
