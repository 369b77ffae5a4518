/**
 * Pins what the READMEs say (the root README, the examples' and the packages'), for the
 * statements no other test holds them to. A README's TypeScript is run as it is written: compiled
 * with decorator metadata and run in this process, where `createApp` hands its app to the test
 * instead of serving stdio, and the app is then driven through the real SDK client.
 */
import 'reflect-metadata';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import type { Client } from '@modelcontextprotocol/client';
import * as server from '@toolwright/server';
import type { App, AppOptions } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { createHttpApp } from '../../examples/http/src/app';
import { tokenAuth } from '../../examples/http/src/auth';
import { textOf } from './helpers';

const REPO = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(REPO, path), 'utf8');
/** The text under a heading (`## Examples`, `### From a clone (today)`), up to the next heading of that level or above. */
function section(text: string, heading: string): string {
  const level = /^#+/.exec(heading)![0].length;
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no heading '${heading}'`);
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level}} `));
  return end < 0 ? rest : rest.slice(0, end);
}
const blocks = (text: string, lang: string) => [...text.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, 'gm'))].map((m) => m[1]);

/** Runs a README's TypeScript block as written; `createApp` builds the real app, and `listen` records its options instead of serving. */
async function runBlock(code: string, overrides: Record<string, unknown> = {}): Promise<{ apps: App[]; listened: unknown[]; exports: Record<string, unknown> }> {
  const apps: App[] = [];
  const listened: unknown[] = [];
  const pending: Promise<unknown>[] = [];
  const createApp = (options: AppOptions) => {
    const made = server.createApp(options).then((app) => {
      apps.push(app);
      return { listen: async (listen: unknown) => void listened.push(listen) };
    });
    pending.push(made);
    return made;
  };
  const modules: Record<string, unknown> = { '@toolwright/server': { ...server, createApp }, ...overrides };
  const js = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, experimentalDecorators: true, emitDecoratorMetadata: true, esModuleInterop: true },
  }).outputText;
  const exports: Record<string, unknown> = {};
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;
  const load = (name: string) => (Object.hasOwn(modules, name) ? modules[name] : require(name));
  // As `node server.js` starts it: no flags.
  const argv = process.argv;
  process.argv = [argv[0]!, 'server.js'];
  try {
    await new AsyncFunction('require', 'exports', js)(load, exports);
    // A block may chain `createApp(...).then((app) => app.listen(...))` without awaiting it.
    await Promise.all(pending);
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.argv = argv;
  }
  return { apps, listened, exports };
}

describe('root README: the tool an app team writes', () => {
  let client: Client;
  beforeAll(async () => {
    const [code] = blocks(section(read('README.md'), '## A tool, as an app team writes it'), 'ts');
    const { apps, listened } = await runBlock(code!);
    expect(listened).toEqual([{ transport: 'stdio' }]);
    client = await createTestClient(apps[0]!);
  });
  afterAll(() => client.close());

  it('serves get_weather with exactly the input schema the README prints', async () => {
    const printed = /^`get_weather` is served with the input schema\n`(\{.*\})`;$/m.exec(read('README.md'))?.[1];
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['get_weather']);
    expect(tools[0]!.inputSchema).toEqual(JSON.parse(printed!));
  });

  it('answers a call with bad arguments with an isError result naming each offending field; a ToolError reaches the model', async () => {
    const bad = await client.callTool({ name: 'get_weather', arguments: { location: 7, units: 'c' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/- location: .*\n- units: /);
    const unknown = await client.callTool({ name: 'get_weather', arguments: { location: 'Lima' } });
    expect({ isError: unknown.isError, text: textOf(unknown) }).toEqual({ isError: true, text: "No weather data for 'Lima'." });
    const tokyo = await client.callTool({ name: 'get_weather', arguments: { location: 'Tokyo' } });
    expect(JSON.parse(textOf(tokyo)!)).toEqual({ city: 'Tokyo', celsius: 21, conditions: 'clear' });
  });
});

describe('root README: the examples', () => {
  const examples = section(read('README.md'), '## Examples');

  // The section said every example serves from dist/server.js; edge has none and interop is a test bench, and neither was listed.
  it('lists every folder of examples/, and each it calls a runnable server has a server entry that reads the listen flags', () => {
    const folders = readdirSync(join(REPO, 'examples')).filter((name) => existsSync(join(REPO, 'examples', name, 'package.json')));
    expect(folders.filter((name) => !examples.includes(`[\`examples/${name}\`](examples/${name})`))).toEqual([]);
    const runnable = /^The template examples \(([^)]*)\) and `(\w+)` are runnable servers: `node examples\/<name>\/dist\/server\.js`/m.exec(examples);
    expect(runnable).not.toBeNull();
    const names = [...runnable![1]!.matchAll(/`(\w+)`/g)].map((m) => m[1]!).concat(runnable![2]!);
    expect(names).toEqual(['minimal', 'weather', 'http', 'full', 'app', 'conformance']);
    for (const name of names) expect({ name, reads: read(`examples/${name}/src/server.ts`).includes('parseListenArgs()') }).toEqual({ name, reads: true });
    expect(existsSync(join(REPO, 'examples/edge/src/server.ts'))).toBe(false);
  });

  it('examples/http starts over HTTP only with MCP_TOKENS (or MCP_ALLOW_ANONYMOUS=1), as the section says', () => {
    expect(examples).toContain('`examples/http` asks for bearer tokens there and starts only with them (`MCP_TOKENS="s3cret=ci"`');
    expect(() => tokenAuth({})).toThrow(/^MCP_TOKENS is not set, so the HTTP server would let every caller in without a token: it does not start\./);
    expect(tokenAuth({ MCP_ALLOW_ANONYMOUS: '1' })).toBeUndefined();
    expect(tokenAuth({ MCP_TOKENS: 's3cret=ci' })).toBeDefined();
  });
});

describe("examples/http README (the http template's): what comes with the HTTP transport", () => {
  const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };
  /** The example app over real HTTP on 127.0.0.1 with `auth`; the status of each path. */
  async function statuses(auth: NonNullable<ReturnType<typeof tokenAuth>>, paths: readonly string[]): Promise<Record<string, number>> {
    const app = await createHttpApp();
    const listener = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, auth, ...quiet });
    try {
      const base = new URL(listener.url).origin;
      return Object.fromEntries(await Promise.all(paths.map(async (path) => [path, (await fetch(base + path)).status] as const)));
    } finally {
      await listener.close();
    }
  }
  const PRM = '/.well-known/oauth-protected-resource/mcp';

  // The README said the OAuth protected-resource metadata comes with the HTTP transport; with the template's static tokens it is not served.
  it('serves /healthz and /readyz; the protected-resource metadata only once auth names an authorization server', async () => {
    const readme = read('examples/http/README.md');
    expect(readme).toContain(
      'Health checks at `/healthz` and `/readyz` come with the HTTP transport. The OAuth protected-resource metadata (`/.well-known/oauth-protected-resource/mcp`) comes too once `src/auth.ts` names an authorization server (`authorizationServers`, with `jwtVerifier`); static tokens have none, so it is not served.',
    );
    const tokens = tokenAuth({ MCP_TOKENS: 's3cret=ci' })!;
    expect(await statuses(tokens, ['/healthz', '/readyz', PRM])).toEqual({ '/healthz': 200, '/readyz': 200, [PRM]: 404 });
    expect(await statuses({ ...tokens, authorizationServers: ['https://auth.example.com'] }, [PRM])).toEqual({ [PRM]: 200 });
  });
});

describe('package READMEs', () => {
  const folders = readdirSync(join(REPO, 'packages')).filter((name) => existsSync(join(REPO, 'packages', name, 'README.md')));
  const manifest = (folder: string) => JSON.parse(read(`packages/${folder}/package.json`)) as Record<string, Record<string, string> | undefined> & { name: string };
  const byName = new Map(folders.map((folder) => [manifest(folder).name, manifest(folder)]));

  /** What `npm install <names>` puts in node_modules: the names, their dependencies and their peers that are not optional (npm 7+), through the repository's packages. */
  function installed(names: readonly string[]): Set<string> {
    const found = new Set<string>();
    const visit = (name: string) => {
      if (found.has(name)) return;
      found.add(name);
      const pkg = byName.get(name);
      if (!pkg) return;
      const optional = pkg.peerDependenciesMeta as unknown as Record<string, { optional?: boolean }> | undefined;
      for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep);
      for (const peer of Object.keys(pkg.peerDependencies ?? {})) if (optional?.[peer]?.optional !== true) visit(peer);
    };
    names.forEach(visit);
    return found;
  }

  // The hono README's example imports @hono/node-server, which its npm install line left out.
  it.each(folders.filter((f) => f !== 'cli' && f !== 'create-toolwright'))('%s: every package its example imports is one its install line installs', (folder) => {
    const text = read(`packages/${folder}/README.md`);
    const install = blocks(section(text, '## Install'), 'sh')[0]!;
    const names = /^npm install (?:--save-dev )?(.*)$/m.exec(install)![1]!.split(/\s+/);
    const example = blocks(section(text, '## Example'), 'ts')[0]!;
    const imported = [...example.matchAll(/^import (?:[^'"]* from )?'([^'.][^']*)';/gm)].map((m) => m[1]!.replace(/^((?:@[^/]+\/)?[^/]+).*$/, '$1')).filter((name) => !name.startsWith('node:'));
    expect(imported.length).toBeGreaterThan(0);
    const have = installed(names);
    expect(imported.filter((name) => !have.has(name))).toEqual([]);
  });

  it("core: the example's registry lists greet with a required string `name`, as its comment says", async () => {
    const code = blocks(section(read('packages/core/README.md'), '## Example'), 'ts')[0]!;
    expect(code).toContain('console.error(registry.toolList.tools); // greet, with its input schema: { name: string } required');
    const printed: unknown[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation((value: unknown) => void printed.push(value));
    try {
      await runBlock(code);
    } finally {
      spy.mockRestore();
    }
    expect(printed).toEqual([
      [expect.objectContaining({ name: 'greet', inputSchema: expect.objectContaining({ properties: { name: expect.objectContaining({ type: 'string' }) }, required: ['name'] }) })],
    ]);
  });

  it('server: the example serves stdio without flags, and `--http --port 3000` Streamable HTTP, as its comment says', async () => {
    const code = blocks(section(read('packages/server/README.md'), '## Example'), 'ts')[0]!;
    expect(code).toContain('await app.listen(parseListenArgs()); // stdio; `--http --port 3000` serves Streamable HTTP');
    const { listened, apps } = await runBlock(code);
    expect(listened).toEqual([{ transport: 'stdio' }]);
    expect(server.parseListenArgs(['--http', '--port', '3000'])).toMatchObject({ transport: 'http', port: 3000 });
    const client = await createTestClient(apps[0]!);
    expect(textOf(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada!');
    await client.close();
  });
});
