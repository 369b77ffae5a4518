import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { checkoutRoot } from '../src/generate/checkoutRoot';
import { memoryIo } from './helpers/memoryIo';

/** `toolwright new` from this checkout: it npm packs the packages, apart from new.test.ts so that file stays in the fast loop. */
const REPO = join(__dirname, '..', '..', '..');

describe('toolwright new, from a checkout', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'toolwright-new-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('from a checkout, depends on tarballs of it by default and says so; --registry pins the published version', async () => {
    const io = memoryIo(tmp);
    expect(await runCli(['new', 'local-server', '--pack-dir', 'packs'], io)).toBe(0);
    expect(io.errors()).toContain(`This toolwright runs from the checkout ${REPO}, whose packages may not be on the npm registry`);
    const pkg = JSON.parse(readFileSync(join(tmp, 'local-server', 'package.json'), 'utf8'));
    expect(pkg.dependencies['@toolwright/server']).toMatch(/^file:\.\.\/packs\/toolwright-server-\d+\.\d+\.\d+\.tgz$/);
    expect(existsSync(join(tmp, 'local-server', pkg.dependencies['@toolwright/server'].slice('file:'.length)))).toBe(true);
    expect(checkoutRoot(join(tmp, 'node_modules', '@toolwright', 'cli'))).toBeUndefined();
    expect(checkoutRoot()).toBe(REPO);
  }, 60_000);
});
