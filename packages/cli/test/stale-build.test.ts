import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveEntry } from '../src/client/resolveEntry';
import { staleBuildWarning } from '../src/client/staleBuild';

/**
 * Issue 30 #6: `schema diff` against a stale build said "No changes". Commands that start the
 * compiled server now say the build is older than src/ (the command itself: commands.e2e.test.ts).
 */
describe('a build older than its sources', () => {
  let project: string;
  const at = (file: string, seconds: number) => utimesSync(join(project, file), seconds, seconds);
  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'toolwright-stale-'));
    mkdirSync(join(project, 'src', 'tools'), { recursive: true });
    mkdirSync(join(project, 'dist'));
    writeFileSync(join(project, 'package.json'), '{ "main": "dist/server.js" }');
    writeFileSync(join(project, 'src', 'server.ts'), '');
    writeFileSync(join(project, 'src', 'tools', 'orders.tools.ts'), '');
    writeFileSync(join(project, 'dist', 'server.js'), 'process.exit(0);\n');
    writeFileSync(join(project, 'dist', 'orders.tools.js'), '');
    writeFileSync(join(project, 'dist', 'tsconfig.tsbuildinfo'), '');
    for (const file of ['src/server.ts', 'src/tools/orders.tools.ts']) at(file, 1000);
    for (const file of ['dist/server.js', 'dist/orders.tools.js', 'dist/tsconfig.tsbuildinfo']) at(file, 2000);
  });
  afterEach(() => rmSync(project, { recursive: true, force: true }));

  it('says nothing when the build is newer than every source', () => {
    expect(staleBuildWarning(resolveEntry(project, undefined), project)).toBeUndefined();
  });

  it('names the source changed after the build, even one the entry does not import directly', () => {
    at('src/tools/orders.tools.ts', 3000);
    expect(staleBuildWarning(resolveEntry(project, undefined), project)).toBe(
      "Warning: src/tools/orders.tools.ts changed after the last build (dist/server.js and the files beside it are older), so this reads the previous build. Run 'npm run build' first.",
    );
  });

  it('takes a rebuild that only refreshed the build info (sources touched, not changed) as current', () => {
    at('src/server.ts', 3000);
    at('dist/tsconfig.tsbuildinfo', 3001);
    expect(staleBuildWarning(resolveEntry(project, undefined), project)).toBeUndefined();
  });
});
