import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ADAPTER_DEPENDENCIES,
  ADAPTER_PACKAGES,
  DEPENDENCY_VERSIONS,
  DEV_DEPENDENCY_VERSIONS,
  generateProject,
  runCli,
  TEMPLATE_NAMES,
  TEMPLATES,
  TOOLWRIGHT_PACKAGES,
  validateProjectName,
  type ToolwrightPackage,
} from '@toolwright/cli';
import { suggestProjectName } from '../src/generate/validateProjectName';
import { memoryIo } from './helpers/memoryIo';

const REPO = join(__dirname, '..', '..', '..');

describe('toolwright new', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'toolwright-new-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  // Issue 31 #13: projects shipped @modelcontextprotocol/sdk (express and more) as a runtime dependency for the test kit alone.
  it.each(TEMPLATE_NAMES)("%s: ships no SDK v1, and the test kit's client only as a dev dependency", (template) => {
    const files = generateProject({ template, transport: template === 'http' ? 'http' : 'stdio', packageName: 'p', toolwrightVersion: '0.1.0' });
    const pkg = JSON.parse(files.find((f) => f.path === 'package.json')!.content) as Record<string, Record<string, string>>;
    expect(Object.keys(pkg.dependencies).filter((name) => name.startsWith('@modelcontextprotocol/'))).toEqual(['@modelcontextprotocol/server']);
    expect(pkg.devDependencies['@modelcontextprotocol/client']).toBe(DEV_DEPENDENCY_VERSIONS['@modelcontextprotocol/client']);
    expect(files.filter((f) => f.content.includes('@modelcontextprotocol/sdk')).map((f) => f.path)).toEqual([]);
  });

  it('writes a complete project: pinned dependencies, decorator options, a tool, a service, a test, a README, .gitignore', async () => {
    const io = memoryIo(tmp);
    expect(await runCli(['new', 'my-server', '--registry'], io)).toBe(0);
    const dir = join(tmp, 'my-server');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        '.gitignore',
        'README.md',
        'eslint.config.mjs',
        'jest.config.js',
        'package.json',
        'tsconfig.json',
        'src/app.ts',
        'src/server.ts',
        'src/greeting.tools.ts',
        'src/greeting.service.ts',
        'test/app.e2e.test.ts',
        'test/tsconfig.json',
      ]),
    );
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('my-server');
    for (const version of Object.values({ ...pkg.dependencies, ...pkg.devDependencies })) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.scripts).toMatchObject({ build: 'tsc -b', start: 'node dist/server.js', test: 'tsc -b && tsc -p test && eslint . && jest', lint: 'eslint .' });
    // The lint rules of @toolwright/eslint-plugin run in `npm run lint` and in `npm test` (issue 30).
    expect(pkg.devDependencies).toMatchObject({ '@toolwright/eslint-plugin': expect.any(String), eslint: expect.any(String), 'typescript-eslint': expect.any(String) });
    expect(readFileSync(join(dir, 'eslint.config.mjs'), 'utf8')).toContain('toolwright.configs.recommended');
    const tsconfig = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8'));
    expect(tsconfig.compilerOptions).toMatchObject({ experimentalDecorators: true, emitDecoratorMetadata: true, strict: true });
    expect(readFileSync(join(dir, 'src/app.ts'), 'utf8')).toContain('export function createMyServerApp(): Promise<App> {');
    expect(readFileSync(join(dir, 'src/greeting.tools.ts'), 'utf8')).toContain('constructor(private readonly greetings: GreetingService)');
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    for (const client of ['### Claude Desktop', '### VS Code', '### Cursor', '"mcpServers"', '"servers"']) expect(readme).toContain(client);
    expect(io.output()).toContain('Created my-server from the minimal template in my-server');
  });

  it('configures an HTTP transport: npm start serves HTTP, clients get a URL', async () => {
    expect(await runCli(['new', 'web', '--transport', 'http', '--name', '@acme/web', '--registry'], memoryIo(tmp))).toBe(0);
    const pkg = JSON.parse(readFileSync(join(tmp, 'web', 'package.json'), 'utf8'));
    expect(pkg.name).toBe('@acme/web');
    expect(pkg.scripts.start).toBe('node dist/server.js --http --port 3000');
    expect(pkg.scripts.dev).toBe('toolwright dev -- --http --port 3000');
    const readme = readFileSync(join(tmp, 'web', 'README.md'), 'utf8');
    expect(readme).toContain('"url": "http://127.0.0.1:3000/mcp"');
    expect(readme).toContain('"web": {');
  });

  // `npm run dev` was shown bare, and said to serve without authentication: it started the server, which refused to start without MCP_TOKENS.
  it('http: every command in the README that starts the HTTP server gives it MCP_TOKENS, or asks for no authentication on purpose', () => {
    const readme = generateProject({ template: 'http', transport: 'http', packageName: 'x', toolwrightVersion: '9.9.9' }).find((f) => f.path === 'README.md')!.content;
    const code = [...readme.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]).concat(readme.split('\n'));
    const starts = code.map((c) => c.replace(/#.*/, '').trim()).filter((c) => /^(\S+=\S+ )*npm (start|run dev)$/.test(c));
    expect(starts).toEqual(expect.arrayContaining(['MCP_TOKENS="s3cret=ci" npm start', 'MCP_TOKENS="s3cret=ci" npm run dev', 'MCP_ALLOW_ANONYMOUS=1 npm run dev']));
    for (const start of starts) expect(start).toMatch(/^(MCP_TOKENS="s3cret=ci"|MCP_ALLOW_ANONYMOUS=1) npm/);
  });

  // The snippets named the URL only: every client got 401, and Claude Desktop's mcp-remote went looking for an OAuth server.
  it('http: the README says how each client sends the token the server asks for, and each snippet sends it from a variable', () => {
    const readme = generateProject({ template: 'http', transport: 'http', packageName: 'x', toolwrightVersion: '9.9.9' }).find((f) => f.path === 'README.md')!.content;
    const connect = readme.slice(readme.indexOf('## Connect a client'), readme.indexOf('### '));
    expect(connect).toContain('each snippet sends `Authorization: Bearer` with the token in the `MCP_TOKEN` environment variable');
    expect(connect).toContain("npx toolwright config claude|cursor|vscode --header 'Authorization: Bearer ${env:MCP_TOKEN}'");
    const snippets = [...readme.matchAll(/```json\n([^`]+)```/g)].map((m) => m[1]);
    expect(snippets).toHaveLength(3);
    expect(snippets[0]).toContain('"Authorization:Bearer ${MCP_TOKEN}"'); // Claude Desktop, through mcp-remote
    expect(snippets[1]).toContain('"Authorization": "Bearer ${env:MCP_TOKEN}"'); // Cursor
    expect(snippets[2]).toContain('"Authorization": "Bearer ${input:MCP_TOKEN}"'); // VS Code, with a password input
    expect(readme).not.toContain('Bearer s3cret"');
    expect(readme).toContain('MCP_TOKENS="s3cret=ci" npm start');
    const web = generateProject({ template: 'minimal', transport: 'http', packageName: 'x', toolwrightVersion: '9.9.9' }).find((f) => f.path === 'README.md')!.content;
    expect(web).not.toContain('Authorization');
  });

  // The README said nothing about the first change everyone makes: where a new tool goes.
  it.each(TEMPLATE_NAMES)('%s: the README says where to add a tool, naming the file that lists the tool classes', (template) => {
    const files = generateProject({ template, transport: 'stdio', packageName: 'x', toolwrightVersion: '9.9.9' });
    const readme = files.find((f) => f.path === 'README.md')!.content;
    const section = /\n## Add a tool\n\n(.*)\n/.exec(readme)?.[1] ?? '';
    const file = /lists in `([^`]+)`/.exec(section)?.[1];
    expect(files.find((f) => f.path === file)?.content).toMatch(/\btools: \[\w+/);
    expect(section).toContain('`optional: true`');
  });

  // The oauth README described src/app.ts twice ("builds the app from the tool classes", then the OAuth server).
  it.each(TEMPLATE_NAMES)("%s: the README's What's inside describes each file once, and every file it names is written", (template) => {
    const files = generateProject({ template, transport: 'stdio', packageName: 'x', toolwrightVersion: '9.9.9' });
    const readme = files.find((f) => f.path === 'README.md')!.content;
    const inside = /\n## What's inside\n\n([\s\S]*?)\n\n## /.exec(readme)?.[1] ?? '';
    const described = [...inside.matchAll(/^- `([^`]+)`:/gm)].map((m) => m[1]);
    expect(described.length).toBeGreaterThan(2);
    expect(described.filter((path, i) => described.indexOf(path) !== i)).toEqual([]);
    const written = new Set(files.map((f) => f.path));
    // test/ is a folder; dist-worker/ is a build output.
    const named = [...inside.matchAll(/`((?:src|app|scripts|views|test)\/[\w./-]+\.\w+|[\w.-]+\.(?:jsonc|mjs))`/g)].map((m) => m[1]);
    expect(named.filter((path) => !written.has(path))).toEqual([]);
  });
  it('refuses a non-empty folder without --force, and changes nothing in it', async () => {
    const dir = join(tmp, 'taken');
    rmSync(dir, { recursive: true, force: true });
    require('node:fs').mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const io = memoryIo(tmp);
    expect(await runCli(['new', 'taken'], io)).toBe(2);
    expect(io.errors()).toContain('is not empty (notes.txt). Choose another folder, or pass --force');
    expect(readdirSync(dir)).toEqual(['notes.txt']);

    expect(await runCli(['new', 'taken', '--force', '--registry'], memoryIo(tmp))).toBe(0);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    expect(existsSync(join(dir, 'src', 'server.ts'))).toBe(true);
  });

  it.each([
    [['new', 'x', '--template', 'huge'], "Unknown --template 'huge'. Use one of: minimal, weather, http, full, app, edge, express, nest, next, oauth."],
    [['new', 'x', '--transport', 'sse'], "Unknown --transport 'sse'. Use one of: stdio, http."],
    [['new', 'x', '--name', 'My Server'], "Invalid --name 'My Server': npm package names are lowercase: try 'my-server'."],
    [
      ['new', 'x', '--name', 'my server'],
      "Invalid --name 'my server': use lowercase letters, digits, '-', '.' or '_', optionally scoped as '@scope/name', starting with a letter or digit: try 'my-server'.",
    ],
    [['new', 'Bad Folder'], "The folder name 'Bad Folder' is not a valid package name (npm package names are lowercase: try 'bad-folder')"],
    // Accented letters were replaced by '-', then cut: 'ünïcode' suggested 'n-code'.
    [
      ['new', 'ünïcode'],
      "The folder name 'ünïcode' is not a valid package name (use lowercase letters, digits, '-', '.' or '_', optionally scoped as '@scope/name', starting with a letter or digit: try 'unicode')",
    ],
    [['new', 'x', '--name', 'Café Menü'], "Invalid --name 'Café Menü': npm package names are lowercase: try 'cafe-menu'."],
    [['new', 'x', '--local', '--registry'], 'Pass --local or --registry, not both.'],
    [['new'], "Missing <dir>: where to create the project, e.g. 'toolwright new my-server'."],
    [['new', 'x', '--colour'], "Unknown option '--colour'. See 'toolwright new --help'."],
  ])('rejects %j with exit code 2 and writes nothing', async (argv, message) => {
    const io = memoryIo(tmp);
    expect(await runCli(argv, io)).toBe(2);
    expect(io.errors()).toContain(message);
    expect(readdirSync(tmp)).toEqual([]);
  });

  // Ctrl-D or Ctrl-C at a question printed readline's AbortError with its stack and exited 70; an input that had ended waited forever.
  it.each([
    ['', 'Project folder'],
    ['it1\n', 'Template'],
  ])('on a terminal, input closed after %j ends at the question %s: exit 2, one line, nothing written', async (input, question) => {
    const io = memoryIo(tmp, { interactive: true, input });
    expect(await runCli(['new'], io)).toBe(2);
    // The questions are on stderr, before the one error line; stdout has nothing.
    expect(io.errors()).toContain(`? ${question}`);
    expect(io.errors().endsWith(`error: No answer to '${question}': the input was closed (Ctrl-D or Ctrl-C). Nothing was done; pass the answers as arguments to run without questions.\n`)).toBe(true);
    expect(io.output()).toBe('');
    expect(readdirSync(tmp)).toEqual([]);
  });

  // Run as `npm create toolwright`, where no `toolwright` command is installed, a message named 'toolwright new'.
  it.each([
    [['new'], "Missing <dir>: where to create the project, e.g. 'npm create toolwright@latest -- my-server'."],
    [['new', ''], "name one, e.g. 'npm create toolwright@latest -- my-server'"],
    [['new', 'x', '--colour'], "Unknown option '--colour'. See 'npm create toolwright@latest -- --help'."],
    [['new', 'x', '-t', 'http', '-t', 'full'], "--template is given twice: it takes one value. Keep the one you mean. See 'npm create toolwright@latest -- --help'."],
  ])('run as npm create, rejects %j naming npm create, not toolwright', async (argv, message) => {
    const io = memoryIo(tmp);
    expect(await runCli(argv, io, { invocation: 'npm create toolwright@latest --' })).toBe(2);
    expect(io.errors()).toContain(message);
    expect(io.errors()).not.toContain('toolwright new');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it.each(['Bad Name', 'My Server!', '@Acme/Big Tools', '--Odd..Name--', '@x/ü'])('suggests only names that are valid themselves (%j)', (name) => {
    const problem = validateProjectName(name)!;
    const suggestion = /try '([^']+)'/.exec(problem)?.[1];
    expect(suggestion === undefined || validateProjectName(suggestion) === undefined).toBe(true);
    expect(suggestion).toBe(suggestProjectName(name));
  });

  it.each(TEMPLATE_NAMES)('%s: the server reports the version its package.json has', (template) => {
    const files = generateProject({ template, transport: 'stdio', packageName: 'x', toolwrightVersion: '9.9.9' });
    const version = JSON.parse(files.find((f) => f.path === 'package.json')!.content).version;
    // The nest template gives the server's identity to ToolwrightModule.forRoot, in its app module.
    const identity = template === 'nest' ? 'src/app.module.ts' : 'src/app.ts';
    expect(files.find((f) => f.path === identity)?.content).toContain(`version: '${version}',`);
  });

  it.each(['edge', 'express', 'nest', 'next'] as const)('%s: depends on its host packages at the versions this repo tests, and allows their install scripts', (template) => {
    const files = generateProject({ template, transport: 'http', packageName: 'x', toolwrightVersion: '9.9.9' });
    const pkg = JSON.parse(files.find((f) => f.path === 'package.json')!.content) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
      allowScripts: Record<string, boolean>;
      scripts: Record<string, string>;
    };
    const host = TEMPLATES[template].host!;
    expect(pkg.dependencies).toMatchObject({ ...host.dependencies, ...Object.fromEntries(host.toolwrightPackages.map((name) => [name, '9.9.9'])) });
    expect(pkg.devDependencies).toMatchObject(host.devDependencies);
    expect(pkg.allowScripts).toMatchObject(host.installScripts);
    expect(pkg.scripts).toMatchObject(host.scripts);
    const gitignore = files.find((f) => f.path === '.gitignore')!.content;
    for (const output of host.outputs) expect(gitignore.split('\n')).toContain(output);
    // As the template's example resolves it: its own copy where it has one (examples/edge's esbuild), else the workspace's.
    const installed = (name: string) => {
      const own = join(REPO, 'examples', template, 'node_modules', name, 'package.json');
      return JSON.parse(readFileSync(existsSync(own) ? own : join(REPO, 'node_modules', name, 'package.json'), 'utf8')).version;
    };
    for (const [name, version] of Object.entries({ ...host.dependencies, ...host.devDependencies })) expect(`${name}@${version}`).toBe(`${name}@${installed(name)}`);
  });

  it('edge: npm start is the Worker on workerd whatever --transport says, and the README says so', () => {
    for (const transport of ['stdio', 'http'] as const) {
      const files = generateProject({ template: 'edge', transport, packageName: 'x', toolwrightVersion: '9.9.9' });
      expect(JSON.parse(files.find((f) => f.path === 'package.json')!.content).scripts.start).toBe('node scripts/serve-workerd.mjs');
      expect(files.find((f) => f.path === 'README.md')!.content).toContain(TEMPLATES.edge.host!.start);
    }
  });

  it("lists the Toolwright packages each adapter depends on as the adapters' package.json do, and a project on tarballs depends on them too", () => {
    for (const name of ADAPTER_PACKAGES) {
      const manifest = JSON.parse(readFileSync(join(REPO, 'packages', name.replace('@toolwright/', ''), 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
      const ours = Object.keys(manifest.dependencies ?? {}).filter((dep) => dep.startsWith('@toolwright/'));
      expect({ name, dependencies: [...(ADAPTER_DEPENDENCIES[name] ?? [])].sort() }).toEqual({ name, dependencies: ours.sort() });
    }
    const tarball = (name: string) => `file:packs/${name.replace('@toolwright/', 'toolwright-')}-9.9.9.tgz`;
    const localPackages = Object.fromEntries([...TOOLWRIGHT_PACKAGES, ...ADAPTER_PACKAGES].map((name) => [name, tarball(name)])) as Record<ToolwrightPackage, string>;
    const local = generateProject({ template: 'nest', transport: 'http', packageName: 'x', toolwrightVersion: '9.9.9', localPackages });
    const fromTarballs = JSON.parse(local.find((f) => f.path === 'package.json')!.content).dependencies as Record<string, string>;
    for (const name of ['@toolwright/nestjs', ...(ADAPTER_DEPENDENCIES['@toolwright/nestjs'] ?? [])]) expect(fromTarballs[name]).toBe(tarball(name));
    const registry = generateProject({ template: 'nest', transport: 'http', packageName: 'x', toolwrightVersion: '9.9.9' });
    expect(Object.keys(JSON.parse(registry.find((f) => f.path === 'package.json')!.content).dependencies).filter((name) => name.startsWith('@toolwright/'))).toEqual([
      '@toolwright/core',
      '@toolwright/nestjs',
      '@toolwright/server',
    ]);
  });

  it('the docs and READMEs that list the templates name every one of them', () => {
    const read = (path: string) => readFileSync(join(REPO, path), 'utf8');
    expect(read('docs/guide/cli.md')).toContain(`--template ${TEMPLATE_NAMES.join('|')}`);
    const gettingStarted = read('docs/guide/getting-started.md');
    for (const template of TEMPLATE_NAMES) expect({ template, listed: gettingStarted.includes(`| \`${template}\` |`) }).toEqual({ template, listed: true });
    expect(gettingStarted).toContain(`--template ${TEMPLATE_NAMES.join('|')}`);
    const readme = read('README.md');
    for (const template of TEMPLATE_NAMES.filter((t) => t !== 'minimal')) expect({ template, listed: readme.includes(template) }).toEqual({ template, listed: true });
    expect(read('packages/create-toolwright/README.md')).toContain(TEMPLATE_NAMES.filter((t) => t !== 'minimal' && t !== 'weather').join(', '));
  });

  it('prints help for every form of asking', async () => {
    for (const argv of [
      ['new', '--help'],
      ['new', '-h'],
      ['help', 'new'],
    ]) {
      const io = memoryIo(tmp);
      expect(await runCli(argv, io)).toBe(0);
      expect(io.output()).toContain('Usage: toolwright new <dir> [options]');
    }
  });

  // Run as `npm create toolwright -- --help`, the help said 'Usage: toolwright new', a command that route does not install.
  it.each([[['--help']], [['-h']], [['x', '--help']]])('run as npm create, %j prints help that names npm create', async (argv) => {
    const io = memoryIo(tmp);
    expect(await runCli(['new', ...argv], io, { invocation: 'npm create toolwright@latest --' })).toBe(0);
    expect(io.output()).toMatch(/^Usage: npm create toolwright@latest -- <dir> \[options\]\n/);
    expect(io.output()).toContain('\n  npm create toolwright@latest -- weather-server --template weather --name @acme/weather\n');
    expect(io.output()).not.toContain('toolwright new');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it.each(TEMPLATE_NAMES)('renders every placeholder of the %s template', (template) => {
    for (const transport of ['stdio', 'http'] as const) {
      const files = generateProject({ template, transport, packageName: '@scope/3d-printer', toolwrightVersion: '9.9.9' });
      for (const file of files) expect(`${file.path}: ${file.content}`).not.toMatch(/\{\{\w+\}\}/);
      expect(files.find((f) => f.path === 'src/app.ts')?.content).toContain('create_3dPrinterApp');
    }
  });

  it.each([
    ['@scope/3d-printer', 'create_3dPrinterApp'],
    ['weather-server', 'createWeatherServerApp'],
    ['notes-app', 'createNotesApp'],
    ['app', 'createMcpApp'],
    ['@acme/app', 'createMcpApp'],
  ])('names the app factory of %s %s (never App twice, never createApp itself)', (packageName, factory) => {
    const files = generateProject({ template: 'weather', transport: 'stdio', packageName, toolwrightVersion: '9.9.9' });
    expect(files.find((f) => f.path === 'src/app.ts')?.content).toContain(`export function ${factory}(`);
  });

  it('pins the versions this repo is built and tested with', () => {
    const installed = (name: string) => JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')).version;
    for (const [name, version] of Object.entries({ ...DEPENDENCY_VERSIONS, ...DEV_DEPENDENCY_VERSIONS })) {
      expect(`${name}@${version}`).toBe(`${name}@${installed(name)}`);
    }
  });
});
