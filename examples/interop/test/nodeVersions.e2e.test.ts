/**
 * scripts/nodeVersions.js installs the pinned Node.js versions on first use. Several test files in
 * parallel jest workers (these interop tests on Node 22, the compile-cache test on Node 24) may ask
 * on a fresh machine at the same moment: one process must install while the others wait, or
 * concurrent `npm ci` runs in one folder delete each other's files.
 */
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', '..', 'scripts', 'nodeVersions.js');

describe('scripts/nodeVersions.js, asked by several processes at once', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolwright-node-versions-'));
    // A copy of the script with its own node-versions folder, and an `npm` that stands in for the
    // install: it fails when another install is running in the folder, takes a moment, and leaves
    // the binary behind.
    mkdirSync(join(dir, 'scripts', 'node-versions'), { recursive: true });
    mkdirSync(join(dir, 'bin'));
    copyFileSync(SCRIPT, join(dir, 'scripts', 'nodeVersions.js'));
    writeFileSync(join(dir, 'scripts', 'node-versions', 'package.json'), JSON.stringify({ dependencies: { node99: 'npm:node@99.0.0' } }));
    const npm = join(dir, 'bin', 'npm');
    writeFileSync(
      npm,
      `#!/bin/sh
set -e
[ "$1" = ci ] || exit 2
mkdir installing || { echo "npm ci: another install is running here" >&2; exit 1; }
echo run >> "${join(dir, 'installs.log')}"
sleep 0.5
mkdir -p node_modules/node99/bin && : > node_modules/node99/bin/node
rmdir installing
`,
    );
    chmodSync(npm, 0o755);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('installs once; every caller gets the binary', async () => {
    const ask = () =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ['-e', `console.log(require(${JSON.stringify(join(dir, 'scripts', 'nodeVersions.js'))}).nodeBinary('99'))`], {
          env: { ...process.env, PATH: `${join(dir, 'bin')}${delimiter}${process.env.PATH ?? ''}` },
        });
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
        child.on('close', (code) => resolve({ code, out }));
      });
    const answers = await Promise.all([ask(), ask(), ask(), ask()]);
    const binary = join(dir, 'scripts', 'node-versions', 'node_modules', 'node99', 'bin', 'node');
    for (const answer of answers) expect(answer).toEqual({ code: 0, out: expect.stringContaining(binary) });
    expect(readFileSync(join(dir, 'installs.log'), 'utf8')).toBe('run\n');
  });
});
