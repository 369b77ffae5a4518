/**
 * The clone as a way in: after `npm ci`, `npx toolwright` and `npx create-toolwright` work in
 * the repository, and npm installs without asking about install scripts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..', '..');
const readJson = (path: string) => JSON.parse(readFileSync(join(REPO, path), 'utf8'));

describe('repository setup', () => {
  it.each([
    ['packages/cli', 'toolwright'],
    ['packages/create-toolwright', 'create-toolwright'],
  ])('%s: its bin is a committed file, so npm links it at install, before the build', (dir, bin) => {
    const target = readJson(`${dir}/package.json`).bin[bin];
    expect(execFileSync('git', ['ls-files', '--error-unmatch', target], { cwd: join(REPO, dir), encoding: 'utf8' }).trim()).toBe(target);
    expect(realpathSync(join(REPO, 'node_modules', '.bin', bin))).toBe(realpathSync(join(REPO, dir, target)));
  });

  it("npx toolwright runs the checkout's CLI", () => {
    expect(execFileSync('npx', ['--no-install', 'toolwright', '--version'], { cwd: REPO, encoding: 'utf8' }).trim()).toBe(readJson('packages/cli/package.json').version);
  });

  it('npm test first checks what npm cannot install, and says how to get it', () => {
    expect(readJson('package.json').scripts.test).toMatch(/^node scripts\/check-prerequisites\.js && /);
    const result = spawnSync(process.execPath, [join(REPO, 'scripts', 'check-prerequisites.js')], { env: { ...process.env, CHROMIUM_PATH: '/nowhere/chromium' }, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("No Chromium at /nowhere/chromium: the docs render check needs it. On Debian or Ubuntu: 'sudo apt-get install -y chromium'");
  });

  it('every dependency with an install script is allowed or denied in allowScripts (npm 11 warns about the rest)', () => {
    const lock = readJson('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(withScripts.filter((name) => !(name in readJson('package.json').allowScripts))).toEqual([]);
  });
});
