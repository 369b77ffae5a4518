/**
 * Acceptance: a newcomer's first hour, as the README tells it. In a temporary folder: clone
 * this repository, run the README's "From a clone" commands word for word (read from the
 * README, not retyped), which set the clone up and create, install, test and call a server
 * next to it through the linked `npx toolwright`. Then generate the other standalone templates the same
 * way (sharing one pack folder and one install, to keep CI fast), build and test each, and
 * drive them with the installed CLI: over stdio and over HTTP, including a tool that elicits.
 * npm runs offline where its cache allows (the clone's `npm ci` reuses the cache CI just filled).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STANDALONE_TEMPLATE_NAMES, TEMPLATES, type TemplateName } from '@toolwright/cli';
import { INSTALL_SCRIPTS } from '../src/generate/versions';
import { listeningUrl } from './helpers/listeningUrl';
import { commands, REPO, shellBlocks } from './helpers/markdown';
import { run, transcript, type RunResult } from './helpers/run';
import { waitFor } from './helpers/waitFor';

// Each test starts servers and CLI processes, several in a row: minutes on a busy 2-core machine.
jest.setTimeout(180_000);
const node = process.execPath;
/** npm settings for every install here: the cache first, no audit or fund requests. */
const NPM_ENV = { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_loglevel: 'error' };
// The standalone templates; the edge, express and nest ones (heavy installs) have host-templates.e2e.test.ts.
const TEMPLATE_NAMES = STANDALONE_TEMPLATE_NAMES;
const OTHERS = TEMPLATE_NAMES.filter((t) => t !== 'minimal');

/** Runs one README block as a bash script that stops at the first failing command. */
const runBlock = (block: string, cwd: string) => run('bash', ['-euo', 'pipefail', '-c', block], cwd, 600_000, NPM_ENV);

describe('from a clone: the README, then every template through the linked npx toolwright', () => {
  let root: string;
  let clone: string;
  let projects: string;
  const setup = new Map<string, RunResult>();
  const projectTests = new Map<TemplateName, RunResult>();
  const dir = (template: TemplateName) => (template === 'minimal' ? join(root, 'my-server') : join(projects, template));
  const toolwright = (template: TemplateName, ...args: string[]) => run('npx', ['--no-install', 'toolwright', ...args], dir(template));
  const step = (name: string, result: RunResult) => {
    setup.set(name, result);
    if (result.code !== 0) throw new Error(`${name} failed:\n${transcript(result)}`);
    return result;
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'toolwright-clone-'));
    clone = join(root, 'toolwright');
    step('git clone', await run('git', ['clone', '--quiet', REPO, clone], root));
    const [setupBlock, serverBlock] = shellBlocks('README.md', '### From a clone (today)');
    step('README: set up the clone', await runBlock(setupBlock, clone));
    step('README: create, install, test and call a server', await runBlock(serverBlock, clone));

    projects = join(root, 'projects');
    mkdirSync(projects);
    for (const template of OTHERS)
      step(`npx toolwright new ${template}`, await run('npx', ['--no-install', 'toolwright', 'new', join(projects, template), '--template', template, '--pack-dir', join(projects, 'packs')], clone));
    writeFileSync(join(projects, 'package.json'), JSON.stringify({ private: true, workspaces: OTHERS, allowScripts: INSTALL_SCRIPTS }));
    step('npm install (the other templates)', await run('npm', ['install'], projects, 600_000, NPM_ENV));
    await Promise.all(OTHERS.map(async (template) => projectTests.set(template, await run('npm', ['test'], dir(template)))));
  }, 1_200_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('the README commands ran: the demo, then a new server that installs, passes its tests and answers a call', () => {
    const demo = setup.get('README: set up the clone')!;
    expect(demo.stdout).toContain('Connected to Weather');
    const server = setup.get('README: create, install, test and call a server')!;
    expect(server.stdout).toContain('Created my-server from the minimal template');
    expect(server.stderr).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(server.stdout.trimEnd().split('\n').at(-1)).toBe('Hello, Ada!');
    expect(JSON.parse(readFileSync(join(dir('minimal'), 'package.json'), 'utf8')).dependencies['@toolwright/server']).toMatch(/^file:local-packages\//);
  });

  it("Getting started's clone route is commands the README runs above", () => {
    const run = new Set(commands(shellBlocks('README.md', '### From a clone (today)')));
    const page = commands(shellBlocks('docs/guide/getting-started.md', '## From a clone (today)'));
    expect(page.length).toBeGreaterThan(3);
    expect(page.filter((c) => !run.has(c))).toEqual([]);
  });

  it('installs print no install-script warnings: allowScripts covers every dependency with one', () => {
    const lock = JSON.parse(readFileSync(join(projects, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([, e]) => e.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(withScripts.filter((name) => !(name in INSTALL_SCRIPTS))).toEqual([]);
  });

  it.each(OTHERS)('%s: npm test builds the project and its own e2e tests pass, with nothing but jest in the output', (template) => {
    const result = projectTests.get(template)!;
    expect({ code: result.code, log: result.code === 0 ? '' : transcript(result) }).toEqual({ code: 0, log: '' });
    expect(result.stderr).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(`${result.stdout}${result.stderr}`).not.toContain('"msg":"http request"');
  });

  it.each(TEMPLATE_NAMES)('%s: toolwright call runs a tool over stdio', async (template) => {
    const { tool, args } = TEMPLATES[template].exampleCall;
    const result = await toolwright(template, 'call', 'dist/server.js', tool, '--args', JSON.stringify(args));
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout.length).toBeGreaterThan(0);
  });

  it('toolwright call: the exit code tells a tool error (1) from a protocol error (3)', async () => {
    const toolError = await toolwright('minimal', 'call', 'dist/server.js', 'greet', '--args', '{"name":" "}');
    expect(toolError).toMatchObject({ code: 1, stdout: '' });
    expect(toolError.stderr).toContain('The name is blank: pass the name of the person to greet.');
    const unknown = await toolwright('minimal', 'call', 'dist/server.js', 'wave');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain("tools/call 'wave' failed: the server serves no tool 'wave'. It serves 1 tool: greet.");
    const greeting = await toolwright('minimal', 'call', 'dist/server.js', 'greet', '--args', '{"name":"Ada","language":"ja"}');
    expect(greeting).toMatchObject({ code: 0, stdout: 'こんにちは、Adaさん!\n' });
  });

  it.each(TEMPLATE_NAMES)('%s: toolwright inspect --lint finds no errors in a generated project', async (template) => {
    const result = await toolwright(template, 'inspect', '--lint');
    expect({ code: result.code, out: result.code === 0 ? '' : transcript(result) }).toEqual({ code: 0, out: '' });
    expect(result.stdout).toContain(TEMPLATES[template].exampleCall.tool);
  });

  it('toolwright config prints a client snippet with the real path', async () => {
    const result = await toolwright('minimal', 'config', 'claude');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ mcpServers: { 'my-server': { command: 'node', args: [join(dir('minimal'), 'dist', 'server.js')] } } });
  });

  it('schema snapshot, then a breaking change: schema diff reports it and exits 1', async () => {
    const project = dir('minimal');
    expect(await toolwright('minimal', 'schema', 'snapshot', '--out', 'contract.json')).toMatchObject({ code: 0 });
    const snapshot = JSON.parse(readFileSync(join(project, 'contract.json'), 'utf8'));
    expect(snapshot.tools.map((t: { name: string }) => t.name)).toEqual(['greet']);
    const unchanged = await toolwright('minimal', 'schema', 'diff', 'contract.json');
    expect(unchanged).toMatchObject({ code: 0, stdout: 'No changes: the served contract matches the snapshot.\n' });

    // Breaking: `language` loses its default (so becomes required) and loses the value 'ja'.
    const source = join(project, 'src', 'greeting.tools.ts');
    const tools = readFileSync(source, 'utf8');
    writeFileSync(source, tools.replace("enum: LANGUAGES, default: 'en',", "enum: ['en', 'fr'],"));
    expect(await run('npm', ['run', 'build'], project)).toMatchObject({ code: 0 });

    const diff = await toolwright('minimal', 'schema', 'diff', 'contract.json');
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('Breaking changes (2):');
    expect(diff.stdout).toContain("tool 'greet' input language: now required: calls without it are rejected");
    expect(diff.stdout).toContain(`tool 'greet' input language: enum value "ja" removed`);
    const json = await toolwright('minimal', 'schema', 'diff', 'contract.json', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ breaking: true });
  });

  it('full: toolwright call answers a tool that elicits, over stdio', async () => {
    const answered = await toolwright('full', 'call', 'dist/server.js', 'reserve_book', '--args', '{"bookId":1}', '--elicit', '{"branch":"harbour"}');
    expect(answered).toMatchObject({ code: 0, stdout: "Reserved 'Dune' for pickup at the harbour branch.\n" });
  });

  it('http and full: toolwright call and inspect over HTTP, with a bearer token and a tool that elicits', async () => {
    const servers: ChildProcess[] = [];
    const start = (template: TemplateName) => {
      const server = spawn(node, ['dist/server.js', '--http', '--port', '0'], { cwd: dir(template), env: { ...process.env, MCP_TOKENS: 's3cret=ci' }, stdio: ['ignore', 'ignore', 'pipe'] });
      servers.push(server);
      return listeningUrl(server);
    };
    try {
      const [tasks, library] = await Promise.all([start('http'), start('full')]);
      const added = await run('npx', ['--no-install', 'toolwright', 'call', tasks, 'add_task', '--args', '{"title":"Ship it"}'], dir('http'), undefined, { TOOLWRIGHT_BEARER: 's3cret' });
      expect(added.code).toBe(0);
      expect(JSON.parse(added.stdout)).toMatchObject({ title: 'Ship it', owner: 'ci' });
      expect((await toolwright('http', 'call', tasks, 'add_task', '--args', '{"title":"x"}')).code).toBe(3);
      const reserved = await toolwright('full', 'call', library, 'reserve_book', '--args', '{"bookId":2}', '--field', 'branch=university');
      expect(reserved).toMatchObject({ code: 0, stdout: "Reserved 'A Brief History of Time' for pickup at the university branch.\n" });
      expect((await toolwright('full', 'inspect', library)).stdout).toContain('reserve_book');
    } finally {
      for (const server of servers) server.kill();
    }
  });

  it('toolwright dev builds with tsc, starts the server, and restarts it after a change', async () => {
    const project = dir('weather');
    const dev = spawn(node, [join(projects, 'node_modules', '.bin', 'toolwright'), 'dev'], { cwd: project, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    dev.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const starts = () => stderr.match(/\[toolwright dev\] server started/g)?.length ?? 0;
    try {
      await waitFor(
        () => starts() === 1,
        'the first start',
        () => stderr,
      );
      // tsc -b -w reports "Watching for file changes" just before it starts watching, so the first
      // save can come too early on a busy machine: save again, with new text, until tsc rebuilds.
      const source = join(project, 'src', 'weather.tools.ts');
      const original = readFileSync(source, 'utf8');
      let saves = 0;
      let nextSave = 0;
      await waitFor(
        () => {
          if (starts() >= 2) return true;
          if (Date.now() >= nextSave) {
            writeFileSync(source, original.replace('Perform arithmetic precisely.', `Perform arithmetic exactly (${++saves}).`));
            nextSave = Date.now() + 3000;
          }
          return false;
        },
        'the restart after a change',
        () => stderr,
      );
      const exited = once(dev, 'exit');
      dev.kill('SIGINT');
      expect(await exited).toEqual([0, null]);
    } finally {
      dev.kill('SIGKILL');
    }
  }, 120_000);
});
