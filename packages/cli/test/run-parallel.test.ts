/**
 * scripts/run-parallel.js, which `npm test` runs its steps with: in a temporary package whose npm scripts
 * print and wait, side by side, a queue of at most --jobs at a time, and one --live step printed as it comes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', '..', 'scripts', 'run-parallel.js');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolwright-run-parallel-'));
  const scripts = {
    slow: 'sleep 1.5 && echo slow-done',
    live: 'echo live-1 && sleep 0.5 && echo live-2',
    bad: 'echo bad-said && exit 3',
    args: 'echo args:',
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'run-parallel-test', private: true, scripts }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const runParallel = (...args: string[]) => {
  const { status, stdout, stderr } = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: dir, encoding: 'utf8' });
  return { status, stdout, stderr };
};

describe('scripts/run-parallel.js', () => {
  it("prints the --live step's output as it comes, the others' whole after their header, and each step's time", () => {
    const { status, stdout, stderr } = runParallel('--live', 'live', 'slow', 'live');
    expect(status).toBe(0);
    // The live step's lines come before its header; the slow step's after its own.
    expect(stdout.indexOf('live-2')).toBeLessThan(stdout.indexOf('> live ('));
    expect(stdout.indexOf('> slow (')).toBeLessThan(stdout.indexOf('slow-done'));
    expect(stderr).toMatch(/run-parallel: live [\d.]+ s, slow [\d.]+ s\nrun-parallel: all passed/);
  });

  it('fails when any step fails, names it, and waits for the others to end when the live one fails', () => {
    const { status, stdout, stderr } = runParallel('--live', 'bad', 'slow', 'bad');
    expect(status).toBe(1);
    expect(stdout).toContain('slow-done');
    expect(stderr).toContain('run-parallel: bad failed; waiting for slow to end (Ctrl-C stops it)');
    expect(stderr).toContain('run-parallel: FAILED: bad (exit 3)');
  });

  it('when the live step fails, tells the steps still running from the ones queued behind them', () => {
    const both = runParallel('--jobs', '2', '--live', 'bad', 'slow', 'bad', 'args');
    expect(both.status).toBe(1);
    expect(both.stderr).toContain('run-parallel: bad failed; waiting for slow, then args (queued) to end (Ctrl-C stops it)');
    const queuedOnly = runParallel('--jobs', '1', '--live', 'bad', 'bad', 'args');
    expect(queuedOnly.stderr).toContain('run-parallel: bad failed; waiting for args (queued) to end (Ctrl-C stops it)');
    // Nothing left to wait for: no message.
    expect(runParallel('--live', 'bad', 'bad').stderr).not.toContain('waiting for');
  });

  it('runs at most --jobs at a time, in the order given, passing an item its arguments', () => {
    const { status, stdout } = runParallel('--jobs', '1', 'slow', 'args one two');
    expect(status).toBe(0);
    expect(stdout.indexOf('slow-done')).toBeLessThan(stdout.indexOf('args: one two'));
  });

  it('refuses a --live step that is not among the items, and a --jobs that is no whole number', () => {
    expect(runParallel('--live', 'nope', 'slow')).toMatchObject({ status: 2, stderr: 'run-parallel: --live nope: not among the items to run (slow)\n' });
    expect(runParallel('--jobs', 'two', 'slow')).toMatchObject({ status: 2, stderr: expect.stringContaining('--jobs takes a whole number') });
  });
});
