import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { shellQuoted } from '../src/cli/shellQuoted';
import { memoryIo } from './helpers/memoryIo';

/**
 * `toolwright new` ends with the commands to run next, the first `cd <folder>`: the folder is
 * quoted for a POSIX shell whenever it holds anything but letters, digits and `_ . / @ + -`, so
 * pasting the line enters that folder and runs nothing else.
 */
describe("toolwright new's cd line", () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'toolwright-cd-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it.each([
    ['plain', 'plain'],
    ['@scope+x/v1.0_a-b', '@scope+x/v1.0_a-b'],
    ['my server', "'my server'"],
    ["it's", "'it'\\''s'"],
    ['$(touch pwned)', "'$(touch pwned)'"],
    ['a;b&c|d', "'a;b&c|d'"],
    ['`id`"x"', '\'`id`"x"\''],
    ['~home', "'~home'"],
    ['back\\slash', "'back\\slash'"],
    ['*', "'*'"],
    ['./-dash', './-dash'],
    ["./-it's", "'./-it'\\''s'"],
  ])('%s is shown as cd %s', async (dir, shown) => {
    const io = memoryIo(tmp);
    expect(await runCli(['new', dir, '--registry', '--name', 'p'], io)).toBe(0);
    expect(io.output().split('\n')).toContain(`  cd ${shown}`);
  });
});

describe('shellQuoted on Windows', () => {
  it.each([
    ['sub\\app', 'sub\\app'],
    ['D:\\work\\app', 'D:\\work\\app'],
    ['my server', '"my server"'],
    ["it's", '"it\'s"'],
    ['-x', './-x'],
  ])('%s is shown as cd %s (cmd.exe takes single quotes literally)', (dir, shown) => {
    expect(shellQuoted(dir, 'win32')).toBe(shown);
  });
});
