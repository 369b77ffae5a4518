/**
 * The type surface of every public entry point is pinned in packages/<pkg>/etc/*.api.md
 * (scripts/api-report.js, `npm run api:check` in `npm test`). These check the check: it
 * passes on the checked-in reports and fails, naming the fix, when the types and a report
 * disagree. Like public-api.test.ts, it reads the built packages (`npm run build`).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..', '..');
const ENTRY = '--only=@toolwright/server/auth';

async function check(reports: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['scripts/api-report.js', ENTRY, `--reports=${reports}`], { cwd: ROOT });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

describe('npm run api:check', () => {
  let reports: string;
  beforeEach(() => {
    reports = mkdtempSync(join(tmpdir(), 'toolwright-api-report-test-'));
    cpSync(join(ROOT, 'packages', 'server', 'etc'), join(reports, 'server'), { recursive: true });
  });
  afterEach(() => rmSync(reports, { recursive: true, force: true }));

  it('passes when the checked-in report matches the built types', async () => {
    const { code, output } = await check(reports);
    expect(output).toContain('1 public entry points match their reports');
    expect(code).toBe(0);
  });

  it('fails when the surface changed without the report, with the diff and the command that updates it', async () => {
    const file = join(reports, 'server', 'auth.api.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('export function envAuthInfo(', 'export function envAuthInfoRenamed('));
    const { code, output } = await check(reports);
    expect(code).toBe(1);
    expect(output).toContain('the public types changed for @toolwright/server/auth');
    expect(output).toContain('-export function envAuthInfoRenamed(');
    expect(output).toContain('npm run api:update');
  });

  it('fails when a report is missing', async () => {
    rmSync(join(reports, 'server', 'auth.api.md'));
    const { code, output } = await check(reports);
    expect(code).toBe(1);
    expect(output).toMatch(/auth\.api\.md \(missing\)/);
    expect(output).toContain('npm run api:update');
  });
});
