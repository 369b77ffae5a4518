/**
 * `toolwright test-conformance` runs the official suite against a user's server. Here the
 * suite folder is the repository's own (examples/conformance/suite, which `npm run
 * test:conformance` uses too), so the suite is downloaded once for both.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { resolveEntry } from '../src/client/resolveEntry';
import { startHttpServer } from '../src/client/startHttpServer';
import { CONFORMANCE_PACKAGES } from '../src/conformance/conformanceSuite';
import { memoryIo } from './helpers/memoryIo';

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');
const SUITE = join(EXAMPLES, 'conformance', 'suite');

describe('toolwright test-conformance', () => {
  const conformance = async (cwd: string, ...argv: string[]) => {
    const io = { ...memoryIo(cwd), env: { TOOLWRIGHT_CONFORMANCE_DIR: SUITE } };
    const code = await runCli(['test-conformance', ...argv], io);
    return { code, stdout: io.output(), stderr: io.errors() };
  };

  it('pins the suite versions the repository tests itself with', () => {
    expect(CONFORMANCE_PACKAGES).toEqual(JSON.parse(readFileSync(join(SUITE, 'package.json'), 'utf8')).dependencies);
  });

  it('starts the server over HTTP, runs a scenario, and passes (exit 0)', async () => {
    const result = await conformance(join(EXAMPLES, 'conformance'), '--scenario', 'tools-call-simple-text');
    expect(result).toMatchObject({ code: 0, stdout: '2025-11-25: 1/1 scenario passed\n' });
  }, 300_000);

  it('runs against the URL of a server already running', async () => {
    const server = await startHttpServer(resolveEntry(join(EXAMPLES, 'conformance'), undefined, []));
    try {
      const result = await conformance(EXAMPLES, server.url, '--scenario', 'tools-call-simple-text');
      expect(result).toMatchObject({ code: 0, stdout: '2025-11-25: 1/1 scenario passed\n' });
    } finally {
      await server.stop();
    }
  }, 300_000);

  it('names the failing scenario and exits 1 when the server does not conform', async () => {
    const result = await conformance(join(EXAMPLES, 'minimal'), '--scenario', 'tools-call-simple-text');
    expect(result).toMatchObject({ code: 1, stdout: '2025-11-25: 0/1 scenario passed; failing: tools-call-simple-text\n' });
  }, 120_000);

  // examples/minimal, weather, http and full are exactly what `toolwright new` writes for each template (examples.test.ts).
  it.each(['minimal', 'weather', 'http', 'full'])(
    'passes out of the box for a project of the %s template, listing the scenarios that do not apply',
    async (template) => {
      const result = await conformance(join(EXAMPLES, template), '--run', '2025-11-25', '--run', '2026-07-28', '--run', '0.1.16');
      expect(result.code).toBe(0);
      const lines = result.stdout.split('\n');
      for (const run of ['2025-11-25', '2026-07-28', '0.1.16']) {
        expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${run}: (\\d+)/\\1 scenarios that apply to this server passed$`)));
      }
      expect(result.stdout).toMatch(/^ {2}not counted \(needs the conformance fixtures, \d+\): .*tools-call-simple-text/m);
      expect(result.stderr).toContain('examples/conformance/src');
      if (template !== 'full') expect(result.stdout).toMatch(/^ {2}not counted \(needs resources, 1\): resources-list$/m);
    },
    300_000,
  );

  it('counts every scenario for a server that serves the fixtures, and with --all', async () => {
    const fixtures = await conformance(join(EXAMPLES, 'conformance'), '--run', '2026-07-28');
    expect(fixtures).toMatchObject({ code: 0, stdout: '2026-07-28: 37/37 scenarios passed\n' });
    const all = await conformance(join(EXAMPLES, 'minimal'), '--all');
    expect(all.code).toBe(1);
    expect(all.stdout).toMatch(/^2025-11-25: 6\/30 scenarios passed; failing: completion-complete, /);
  }, 300_000);

  it('refuses an unknown run', async () => {
    const result = await conformance(EXAMPLES, '--run', '2024-01-01');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Unknown --run '2024-01-01'. Use one of: 2025-11-25, 2026-07-28, 0.1.16.");
  });
});
