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

  it('refuses an unknown run', async () => {
    const result = await conformance(EXAMPLES, '--run', '2024-01-01');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Unknown --run '2024-01-01'. Use one of: 2025-11-25, 2026-07-28, 0.1.16.");
  });
});
