/**
 * Acceptance: what `toolwright new` writes is a working project. Each template is generated
 * into a temporary folder against tarballs of this checkout (`--local`), the four projects are
 * installed with ONE `npm install` (an npm workspace sharing the tarballs and npm's cache),
 * then, in parallel, each is built and runs its own tests, and the installed `toolwright`
 * binary calls a tool over stdio, inspects, snapshots and diffs the contract.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEMPLATES, TEMPLATE_NAMES, type TemplateName } from '@toolwright/cli';
import { run, transcript, type RunResult } from './helpers/run';

const CLI = join(__dirname, '..', 'dist', 'bin.js');
const node = process.execPath;

describe('generated projects: install, build, test, call over stdio, guard the contract', () => {
  let root: string;
  const projectTests = new Map<TemplateName, RunResult>();
  const dir = (template: TemplateName) => join(root, template);
  /** The `toolwright` the project installed (hoisted to the workspace root), not this checkout's. */
  const toolwright = (template: TemplateName, ...args: string[]) => run(node, [join(root, 'node_modules', '@toolwright', 'cli', 'dist', 'bin.js'), ...args], dir(template));

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'toolwright-projects-'));
    const generate = (template: TemplateName) => run(node, [CLI, 'new', template, '--template', template, '--local', '--pack-dir', 'packs'], root);
    // The first run packs the tarballs; the others find them fresh and reuse them.
    const first = await generate(TEMPLATE_NAMES[0]);
    expect(first.code).toBe(0);
    for (const result of await Promise.all(TEMPLATE_NAMES.slice(1).map(generate))) expect(result).toMatchObject({ code: 0 });

    writeFileSync(join(root, 'package.json'), JSON.stringify({ private: true, workspaces: [...TEMPLATE_NAMES] }));
    const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], root);
    if (install.code !== 0) throw new Error(`npm install failed:\n${transcript(install)}`);

    await Promise.all(TEMPLATE_NAMES.map(async (template) => projectTests.set(template, await run('npm', ['test'], dir(template)))));
  }, 600_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it.each(TEMPLATE_NAMES)('%s: npm test builds the project and its own e2e tests pass', (template) => {
    const result = projectTests.get(template)!;
    expect({ code: result.code, log: result.code === 0 ? '' : transcript(result) }).toEqual({ code: 0, log: '' });
    expect(result.stderr).toMatch(/Tests:\s+\d+ passed, \d+ total/);
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
    expect(unknown.stderr).toContain("Unknown tool 'wave'");
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
    expect(JSON.parse(result.stdout)).toEqual({ mcpServers: { minimal: { command: 'node', args: [join(dir('minimal'), 'dist', 'server.js')] } } });
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

  it('toolwright dev builds with tsc, starts the server, and restarts it after a change', async () => {
    const project = dir('weather');
    const dev = spawn(node, [join(root, 'node_modules', '@toolwright', 'cli', 'dist', 'bin.js'), 'dev'], { cwd: project, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    dev.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const starts = () => stderr.match(/\[toolwright dev\] server started/g)?.length ?? 0;
    const waitFor = async (check: () => boolean, what: string) => {
      for (const deadline = Date.now() + 60_000; !check(); await new Promise((r) => setTimeout(r, 100))) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${stderr}`);
      }
    };
    try {
      await waitFor(() => starts() === 1, 'the first start');
      const source = join(project, 'src', 'weather.tools.ts');
      writeFileSync(source, readFileSync(source, 'utf8').replace('Perform arithmetic precisely.', 'Perform arithmetic exactly.'));
      await waitFor(() => starts() === 2, 'the restart after a change');
      const exited = once(dev, 'exit');
      dev.kill('SIGINT');
      expect(await exited).toEqual([0, null]);
    } finally {
      dev.kill('SIGKILL');
    }
  }, 120_000);
});

