import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { memoryIo } from './helpers/memoryIo';

/** `schema diff` and `schema snapshot --out` given a folder, a file that is not there or not JSON: what the user typed, answered. */
describe('schema snapshot and diff, given a folder, a missing file or one that is not JSON', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'toolwright-schema-files-'));
    mkdirSync(join(tmp, 'contracts'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const cli = async (argv: string[]) => {
    const io = memoryIo(tmp);
    const code = await runCli(argv, io);
    return { code, stdout: io.output(), stderr: io.errors() };
  };
  const error = (message: string) => ({ code: 2, stdout: '', stderr: `error: ${message}\n` });
  /** The message JSON.parse gives for `text`, which this Node words its own way. */
  const jsonSyntaxError = (text: string): string => {
    try {
      JSON.parse(text);
    } catch (problem) {
      return (problem as Error).message;
    }
    throw new Error(`${text} is JSON`);
  };

  // 'schema diff /tmp' suggested 'schema snapshot --out /tmp', which cannot write a file there. A
  // command that holds a quoted path is not put in quotes itself: it follows a colon, as typed.
  it.each([
    [
      'contracts',
      'Cannot read contracts: it is a folder, and the snapshot is a file. Name the file in it (written by toolwright schema snapshot --out contracts/contract.json): toolwright schema diff contracts/contract.json',
    ],
    [
      'contracts/',
      'Cannot read contracts/: it is a folder, and the snapshot is a file. Name the file in it (written by toolwright schema snapshot --out contracts/contract.json): toolwright schema diff contracts/contract.json',
    ],
    [
      'snapshots/',
      "Cannot read snapshots/: it names a folder (it ends with '/'), and the snapshot is a file. Name the file in it (written by toolwright schema snapshot --out snapshots/contract.json): toolwright schema diff snapshots/contract.json",
    ],
    [
      'my contracts/',
      "Cannot read my contracts/: it names a folder (it ends with '/'), and the snapshot is a file. Name the file in it (written by toolwright schema snapshot --out 'my contracts/contract.json'): toolwright schema diff 'my contracts/contract.json'",
    ],
    ['contract.json', 'Cannot read contract.json: it does not exist (ENOENT). Write it first: toolwright schema snapshot --out contract.json'],
    ['my contract.json', "Cannot read my contract.json: it does not exist (ENOENT). Write it first: toolwright schema snapshot --out 'my contract.json'"],
  ])('schema diff %j says how to name the snapshot (exit 2)', async (file, message) => {
    expect(await cli(['schema', 'diff', file])).toEqual(error(message));
  });

  it('schema diff on a file that is not JSON says how to write it again, its path quoted for the shell (exit 2)', async () => {
    writeFileSync(join(tmp, 'not json.json'), '{');
    try {
      expect(await cli(['schema', 'diff', 'not json.json'])).toEqual(
        error(`not json.json is not JSON (${jsonSyntaxError('{')}). Write a snapshot there: toolwright schema snapshot --out 'not json.json'`),
      );
    } finally {
      rmSync(join(tmp, 'not json.json'));
    }
  });

  // 'snapshots/' was written as a file named 'snapshots'; a folder failed only after the server had run.
  it.each([
    ['contracts', '--out contracts is a folder, and the snapshot is a file. Name a file in it: --out contracts/contract.json.'],
    ['snapshots/', "--out snapshots/ names a folder (it ends with '/'), and the snapshot is a file. Name a file in it: --out snapshots/contract.json."],
  ])('schema snapshot --out %j is refused before the server starts (exit 2)', async (out, message) => {
    expect(await cli(['schema', 'snapshot', 'dist/nope.js', '--out', out])).toEqual(error(message));
    expect(readdirSync(tmp)).toEqual(['contracts']);
  });
});
