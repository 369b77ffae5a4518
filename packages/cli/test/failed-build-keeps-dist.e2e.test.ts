/**
 * A build with errors must not replace the last good build in a generated project's `dist/`:
 * `npm start`, `toolwright call dist/server.js` and a `toolwright dev` restart run what is there.
 * `tsc -b` (TypeScript 5.6 and later) writes its output despite errors unless the project's
 * tsconfig says `noEmitOnError` (`-b` refuses the flag on its command line), so the generator
 * writes it into every build config, standalone and in the monorepo (examples/).
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateProject } from '../src/generate/generateProject';
import type { ProjectOptions } from '../src/generate/ProjectOptions';
import { tsconfig } from '../src/generate/projectFiles';
import { TEMPLATE_NAMES, TEMPLATES } from '../src/generate/templates';
import { waitFor } from './helpers/waitFor';

const REPO = join(__dirname, '..', '..', '..');
const CLI = join(__dirname, '..', 'bin', 'toolwright.js');
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

const STANDALONE: ProjectOptions = { template: 'minimal', transport: 'stdio', packageName: 'failed-build', toolwrightVersion: '0.0.0' };
/** The monorepo's variant (examples/), its base config and references named by absolute path. */
const IN_WORKSPACE: ProjectOptions = { ...STANDALONE, workspaceRoot: REPO };

/** A server that says which build it is (`tag`, a TypeScript expression) on stderr and keeps running. */
const server = (tag: string) => `const tag: string = ${tag};\nconsole.error(\`server up: \${tag}\`);\nsetInterval(() => undefined, 1000);\n`;

/** A project in a temporary folder with the generated build config, the repo's node_modules, and a good src/server.ts. */
function project(options: ProjectOptions): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolwright-failed-build-'));
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'failed-build', private: true, type: 'commonjs', main: 'dist/server.js' }));
  writeFileSync(join(dir, 'tsconfig.json'), tsconfig(options));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'server.ts'), server("'good'"));
  return dir;
}

describe('a failed build keeps the last good build in dist/', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it.each(TEMPLATE_NAMES)('the %s template: its tsc build config says noEmitOnError', (template) => {
    const buildTsconfig = TEMPLATES[template].host?.buildTsconfig ?? 'tsconfig.json';
    const file = generateProject({ ...STANDALONE, template }).find((f) => f.path === buildTsconfig);
    expect((JSON.parse(file!.content) as { compilerOptions: Record<string, unknown> }).compilerOptions.noEmitOnError).toBe(true);
  });

  // The standalone project builds with `tsc -b` (npm run build). The monorepo's variant is built with
  // `tsc -p` here: `-b` would also build its references, the repo's own packages.
  it.each([
    ['a standalone project (tsc -b)', STANDALONE, ['-b']],
    ['an example in the monorepo (tsc -p)', IN_WORKSPACE, ['-p', 'tsconfig.json']],
  ] as const)(
    '%s: a type error, then a syntax error, leave dist/server.js as the good build wrote it',
    (_, options, args) => {
      dir = project(options);
      const build = () => spawnSync(process.execPath, [TSC, ...args], { cwd: dir, encoding: 'utf8' });
      const good = build();
      expect({ status: good.status, output: good.stdout }).toEqual({ status: 0, output: '' });
      const output = join(dir, 'dist', 'server.js');
      const built = readFileSync(output, 'utf8');
      expect(built).toContain("const tag = 'good';");

      for (const broken of ['42', "'broken' +"]) {
        writeFileSync(join(dir, 'src', 'server.ts'), server(broken));
        const failed = build();
        expect(failed.status).not.toBe(0);
        expect(failed.stdout).toContain('src/server.ts');
        expect(readFileSync(output, 'utf8')).toBe(built);
      }
    },
    60_000,
  );

  // A change under views/ restarts the server whatever the last build did: it must run the good build again.
  it('toolwright dev: a views/ change after a failed build restarts the last good build', async () => {
    dir = project(STANDALONE);
    mkdirSync(join(dir, 'views'));
    writeFileSync(join(dir, 'views', 'page.html'), '<p>one</p>\n');
    const dev = spawn(process.execPath, [CLI, 'dev'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    dev.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const ups = () => [...stderr.matchAll(/server up: (\w+)/g)].map((m) => m[1]);
    const servers = () => [...stderr.matchAll(/server started: .*\(pid (\d+)\)/g)].map((m) => Number(m[1]));
    try {
      await waitFor(
        () => ups().length === 1,
        'the first server',
        () => stderr,
      );
      writeFileSync(join(dir, 'src', 'server.ts'), server('42'));
      await waitFor(
        () => stderr.includes('build failed; the server keeps running the last good build'),
        'the failed build',
        () => stderr,
      );
      writeFileSync(join(dir, 'views', 'page.html'), '<p>two</p>\n');
      await waitFor(
        () => ups().length === 2,
        'the restart',
        () => stderr,
      );
      expect(ups()).toEqual(['good', 'good']);
      const exited = once(dev, 'exit');
      dev.kill('SIGINT');
      expect(await exited).toEqual([0, null]);
    } finally {
      dev.kill('SIGKILL');
      // A failed expectation skips the Ctrl-C above: its servers would outlive dev and hold the pipe open.
      for (const pid of servers()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  }, 120_000);
});
