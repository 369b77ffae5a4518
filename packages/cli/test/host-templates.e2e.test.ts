/**
 * Acceptance for the templates that serve inside a host: `edge` (a Cloudflare Worker, run on
 * workerd), `express` (@toolwright/express) and `nest` (@toolwright/nestjs). Each is generated
 * by `toolwright new` from this checkout (tarballs of its built packages, packed once), all three
 * installed by ONE `npm install` as a workspace (the frameworks and workerd are heavy: no other
 * acceptance test installs them), then each project's own `npm test` runs (build, type check,
 * lint, its e2e tests), its server starts as `npm start` starts it, and the installed
 * `toolwright` calls it over HTTP and over stdio. npm runs offline where its cache allows.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, TEMPLATES, type TemplateName } from '@toolwright/cli';
import { installScripts } from '../src/generate/projectFiles';
import { memoryIo } from './helpers/memoryIo';
import { REPO } from './helpers/markdown';
import { run, transcript, type RunResult } from './helpers/run';

jest.setTimeout(180_000);

const HOSTED = ['edge', 'express', 'nest'] as const satisfies readonly TemplateName[];
type Hosted = (typeof HOSTED)[number];
const NPM_ENV = { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_loglevel: 'error' };
/** Folder names unlike any package's: a workspace named `express` would stand in for the real express. */
const folder = (template: Hosted) => `my-${template}`;

/** The project's REST route beside /mcp, where it has one. */
const REST: Partial<Record<Hosted, string>> = { express: '/api/todos', nest: '/todos' };

/** Starts the project's server as `npm start` does, on a free port; resolves with its MCP URL. */
function serve(dir: string, template: Hosted): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const args = template === 'edge' ? ['scripts/serve-workerd.mjs'] : ['dist/server.js', '--http', '--port', '0'];
  const child = spawn(process.execPath, args, { cwd: dir, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /listening on (http:\S+\/mcp)/.exec(stderr)?.[1];
      if (url) resolve({ url, child, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`${template}: the server exited with ${code} before listening:\n${stderr}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('toolwright new --template edge | express | nest: one shared install, then each project as its README runs it', () => {
  let root: string;
  const tests = new Map<Hosted, RunResult>();
  const dir = (template: Hosted) => join(root, folder(template));
  // The installed toolwright, run as `npx toolwright` runs it, without npx's own start-up time.
  const toolwright = (template: Hosted, ...args: string[]) => run(process.execPath, [join(root, 'node_modules', '@toolwright', 'cli', 'bin', 'toolwright.js'), ...args], dir(template), 120_000);
  const step = (name: string, result: RunResult) => {
    if (result.code !== 0) throw new Error(`${name} failed:\n${transcript(result)}`);
    return result;
  };

  beforeAll(async () => {
    if (!existsSync(join(REPO, 'packages', 'server', 'bundle', 'fetch.js'))) throw new Error("This test packs the built packages: run 'npm run build' first.");
    root = mkdtempSync(join(tmpdir(), 'toolwright-hosted-'));
    for (const template of HOSTED) {
      const io = memoryIo(root);
      const code = await runCli(['new', folder(template), '--template', template, '--pack-dir', 'packs'], io);
      if (code !== 0) throw new Error(`toolwright new --template ${template} exited ${code}:\n${io.output()}${io.errors()}`);
    }
    const allowScripts = Object.assign({}, ...HOSTED.map((template) => installScripts({ template })));
    writeFileSync(join(root, 'package.json'), JSON.stringify({ private: true, workspaces: HOSTED.map(folder), allowScripts }));
    step('npm install', await run('npm', ['install'], root, 600_000, NPM_ENV));
    // Each project's `npm test`, two at a time (2 cores): build, type check, lint, jest.
    const queue = [...HOSTED];
    const worker = async () => {
      for (let template = queue.shift(); template; template = queue.shift()) tests.set(template, await run('npm', ['test'], dir(template), 300_000));
    };
    await Promise.all([worker(), worker()]);
  }, 1_200_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('installs print no install-script warnings: each template allows the scripts its packages have', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([, e]) => e.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    const allowed = Object.assign({}, ...HOSTED.map((template) => installScripts({ template }))) as Record<string, boolean>;
    expect(withScripts.filter((name) => !Object.hasOwn(allowed, name)).sort()).toEqual([]);
  });

  it.each(HOSTED)('%s: npm test builds the project and its own e2e tests pass, with nothing but jest in the output', (template) => {
    const result = tests.get(template)!;
    expect({ code: result.code, log: result.code === 0 ? '' : transcript(result) }).toEqual({ code: 0, log: '' });
    expect(result.stderr).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(`${result.stdout}${result.stderr}`).not.toContain('"msg":"http request"');
  });

  it('edge: the build bundled tsc output into the Worker wrangler.jsonc names, with the decorator metadata', () => {
    const wrangler = readFileSync(join(dir('edge'), 'wrangler.jsonc'), 'utf8');
    expect(wrangler).toContain('"main": "dist-worker/worker.mjs"');
    const bundle = readFileSync(join(dir('edge'), 'dist-worker', 'worker.mjs'), 'utf8');
    expect(bundle).toContain('"design:paramtypes"');
    expect(bundle).toContain('"design:returntype"');
  });

  it.each(HOSTED)('%s: served as npm start serves it, the installed toolwright calls its example tool over HTTP', async (template) => {
    const { tool, args } = TEMPLATES[template].exampleCall;
    const server = await serve(dir(template), template);
    try {
      const called = await toolwright(template, 'call', server.url, tool, '--args', JSON.stringify(args));
      expect({ code: called.code, stderr: called.stderr }).toEqual({ code: 0, stderr: '' });
      if (template === 'edge') expect(JSON.parse(called.stdout)).toEqual({ words: 2, characters: 15 });
      else expect(JSON.parse(called.stdout)).toMatchObject({ title: 'Ship it', done: false });
      const rest = REST[template];
      if (rest) {
        // What the MCP tool added, the app's own route shows: one store, one port.
        const todos = (await (await fetch(new URL(rest, server.url))).json()) as { title: string }[];
        expect(todos.map((t) => t.title)).toContain('Ship it');
      }
    } finally {
      await stop(server.child);
    }
  });

  it.each(HOSTED)('%s: dist/server.js serves the same tools over stdio, for toolwright call, inspect and local clients', async (template) => {
    const { tool, args } = TEMPLATES[template].exampleCall;
    const called = await toolwright(template, 'call', 'dist/server.js', tool, '--args', JSON.stringify(args));
    expect({ code: called.code, stderr: called.stderr }).toEqual({ code: 0, stderr: '' });
    expect(called.stdout.length).toBeGreaterThan(0);
    const inspected = await toolwright(template, 'inspect', '--lint');
    expect({ code: inspected.code, out: inspected.code === 0 ? '' : transcript(inspected) }).toEqual({ code: 0, out: '' });
    expect(inspected.stdout).toContain('No problems found.');
  });
});
