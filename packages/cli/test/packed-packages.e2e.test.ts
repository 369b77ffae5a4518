/**
 * The packages as npm would publish them. `npm pack` each one, check what the tarball holds and what
 * its package.json promises (exports, types, bin, engines, sideEffects, publishConfig), then install
 * the tarballs into a new project in a temporary folder, with no workspace around it, a temporary npm
 * cache and the third-party dependencies from registry.npmjs.org. There, compiled by tsc against the
 * installed types (decorators with metadata), a CommonJS and an ES module consumer each serve a tool
 * that the installed `toolwright` calls over stdio, and drive it with the test kit in memory.
 *
 * `npm run release:dry` runs this file; so does `jest` (it is in jest.config.js's SLOW list).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEPENDENCY_VERSIONS, DEV_DEPENDENCY_VERSIONS } from '../src/generate/versions';
import { REPO } from './helpers/markdown';
import { PUBLISHED, type Manifest } from './helpers/published';
import { run, transcript, type RunResult } from './helpers/run';

// One cold install from the network into an empty npm cache, then tsc and a few processes.
jest.setTimeout(180_000);

/** What `npm pack --json` reports of one package. */
interface Packed {
  name: string;
  version: string;
  filename: string;
  files: { path: string }[];
}

/** The files npm always adds, whatever `files` says, and the three this repository adds to every package. */
const ALWAYS = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];

/** A `files` entry as a test of a packed path (the globs this repository uses: a folder, `**`, `*`). */
function filesPattern(entry: string): RegExp {
  const glob = entry.replace(/^!/, '').replace(/\/$/, '');
  const source = glob
    .split('**/')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
    .join('(?:.*/)?');
  return new RegExp(`^${source}(?:/.*)?$`);
}

/** Whether `files` (with its `!` exclusions, last match wins) admits a packed path. */
const admitted = (files: readonly string[], path: string) => files.reduce((inside, entry) => (filesPattern(entry).test(path) ? !entry.startsWith('!') : inside), false);

/** Every file an `exports`, `main`, `types` or `bin` entry names, without `./`. */
function promisedFiles(m: Manifest): string[] {
  const targets = Object.values(m.exports ?? {}).flatMap((t) => (typeof t === 'string' ? [t] : Object.values(t)));
  return [...targets, m.main, m.types, ...Object.values(m.bin ?? {})].filter((f): f is string => f !== undefined).map((f) => f.replace(/^\.\//, ''));
}

const TOOLS = `import { Param, Tool } from '@toolwright/core';

export class GreetingTools {
  @Tool({ description: 'Greet someone by name. Use when the user asks for a greeting.' })
  greet(@Param('name', { description: 'Who to greet' }) name: string): string {
    return \`Hello, \${name}!\`;
  }
}
`;

/** The consumer's sources: the same app as a CommonJS program (.ts) and as an ES module (.mts). */
const SOURCES: Record<string, string> = {
  'src/tools.ts': TOOLS,
  'src/tools.mts': TOOLS,
  'src/server.ts': `import 'reflect-metadata';
import { createApp, parseListenArgs } from '@toolwright/server';
import { GreetingTools } from './tools';

createApp({ name: 'packed-cjs', version: '1.0.0', tools: [GreetingTools] }).then((app) => app.listen(parseListenArgs()));
`,
  'src/server.mts': `import 'reflect-metadata';
import { createApp, parseListenArgs } from '@toolwright/server';
import { GreetingTools } from './tools.mjs';

const app = await createApp({ name: 'packed-esm', version: '1.0.0', tools: [GreetingTools] });
await app.listen(parseListenArgs());
`,
  'src/kit.ts': `import 'reflect-metadata';
import { buildRegistry } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient, toolText } from '@toolwright/server/testing';
import { createRedisCluster } from '@toolwright/redis';
import { GreetingTools } from './tools';

async function main(): Promise<void> {
  const schema = buildRegistry({ tools: [GreetingTools] }).toolList.tools[0].inputSchema;
  const app = await createApp({ name: 'kit-cjs', version: '1.0.0', tools: [GreetingTools] });
  const client = await createTestClient(app);
  const text = await toolText(client.callTool({ name: 'greet', arguments: { name: 'Ada' } }));
  const invalid = await client.callTool({ name: 'greet', arguments: {} });
  await client.close();
  console.log(JSON.stringify({ format: typeof module, schema, text, invalid: invalid.isError, redis: typeof createRedisCluster }));
}
main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
`,
  'src/kit.mts': `import 'reflect-metadata';
import { buildRegistry } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient, toolText } from '@toolwright/server/testing';
import { createRedisCluster } from '@toolwright/redis';
import { GreetingTools } from './tools.mjs';

const schema = buildRegistry({ tools: [GreetingTools] }).toolList.tools[0].inputSchema;
const app = await createApp({ name: 'kit-esm', version: '1.0.0', tools: [GreetingTools] });
const client = await createTestClient(app, { protocol: '2026-07-28' });
const text = await toolText(client.callTool({ name: 'greet', arguments: { name: 'Ada' } }));
const invalid = await client.callTool({ name: 'greet', arguments: {} });
await client.close();
console.log(JSON.stringify({ format: typeof import.meta.url, schema, text, invalid: invalid.isError, redis: typeof createRedisCluster }));
`,
};

const EXPECTED_SCHEMA = { type: 'object', properties: { name: { type: 'string', description: 'Who to greet' } }, required: ['name'], additionalProperties: false };

describe('the packed packages, installed from their tarballs into a project outside the workspace', () => {
  let root: string;
  let project: string;
  let packed: Packed[];
  let env: NodeJS.ProcessEnv;
  const steps = new Map<string, RunResult>();
  const step = async (name: string, command: string, args: string[], cwd = project) => {
    const result = await run(command, args, cwd, 600_000, env);
    steps.set(name, result);
    if (result.code !== 0) throw new Error(`${name} failed:\n${transcript(result)}`);
    return result;
  };
  const npx = (...args: string[]) => run('npx', ['--no-install', ...args], project, 120_000, env);
  const tarball = (name: string) => packed.find((p) => p.name === name)!;

  beforeAll(async () => {
    const missing = PUBLISHED.map(({ dir }) => join(dir, 'dist')).filter((dist) => !existsSync(dist));
    if (missing.length > 0) throw new Error(`This test packs the built packages, but ${missing.join(', ')} is missing: run 'npm run build' first.`);
    root = mkdtempSync(join(tmpdir(), 'toolwright-packed-'));
    const packs = join(root, 'packs');
    project = join(root, 'consumer');
    for (const dir of [packs, project, join(project, 'src')]) mkdirSync(dir);
    // Run from the pack folder: inside the monorepo npm would load the whole workspace first.
    const { stdout } = await promisify(execFile)('npm', ['pack', ...PUBLISHED.map((p) => p.dir), '--pack-destination', packs, '--json', '--ignore-scripts'], {
      cwd: packs,
      maxBuffer: 64 * 1024 * 1024,
    });
    packed = JSON.parse(stdout) as Packed[];

    writeFileSync(join(root, 'npmrc'), '');
    env = {
      // As in a terminal: none of the npm_* variables `npm test` or `npx jest` export, a user config and cache of its own.
      ...Object.fromEntries(
        Object.keys(process.env)
          .filter((k) => /^npm_/i.test(k))
          .map((k) => [k, undefined]),
      ),
      npm_config_userconfig: join(root, 'npmrc'),
      npm_config_cache: join(root, 'npm-cache'),
      npm_config_registry: 'https://registry.npmjs.org/',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      npm_config_loglevel: 'error',
    };
    const deps = Object.fromEntries(packed.map((p) => [p.name, `file:../packs/${p.filename}`]));
    const sdk = {
      '@modelcontextprotocol/server': DEPENDENCY_VERSIONS['@modelcontextprotocol/server'],
      '@modelcontextprotocol/client': DEV_DEPENDENCY_VERSIONS['@modelcontextprotocol/client'],
    };
    const rest = {
      'class-transformer': DEPENDENCY_VERSIONS['class-transformer'],
      'class-validator': DEPENDENCY_VERSIONS['class-validator'],
      'reflect-metadata': DEPENDENCY_VERSIONS['reflect-metadata'],
      typedi: DEPENDENCY_VERSIONS.typedi,
    };
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'packed-consumer', private: true, type: 'commonjs', dependencies: { ...deps, ...sdk, ...rest }, allowScripts: { '@parcel/watcher': false } }, null, 2),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'node16',
          moduleResolution: 'node16',
          strict: true,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          skipLibCheck: true,
          outDir: 'dist',
          rootDir: 'src',
          // @types/node from the repository: the consumer installs nothing but the packages and their peers.
          typeRoots: [join(REPO, 'node_modules', '@types')],
          types: ['node'],
        },
        include: ['src'],
      }),
    );
    for (const [file, text] of Object.entries(SOURCES)) writeFileSync(join(project, file), text);

    await step('npm install', 'npm', ['install']);
    await step('tsc', process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.']);
  }, 600_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  describe.each(PUBLISHED.map((p) => [p.manifest.name, p] as const))('%s', (name, { manifest }) => {
    const files = () =>
      tarball(name)
        .files.map((f) => f.path)
        .sort();

    it('packs at the checkout version, with README, LICENSE, CHANGELOG and package.json', () => {
      expect(tarball(name).version).toBe(manifest.version);
      expect(files()).toEqual(expect.arrayContaining(ALWAYS));
    });

    it('holds nothing but what `files` declares: no build info, tests, configs or API reports', () => {
      expect(files().filter((f) => !ALWAYS.includes(f) && !admitted(manifest.files!, f))).toEqual([]);
      // templates/ holds the files of a generated project, its tests and tsconfig among them.
      expect(files().filter((f) => !f.startsWith('templates/') && /\.tsbuildinfo$|(^|\/)(test|etc|node_modules)\/|\.test\.|tsconfig|\.api\.md$/.test(f))).toEqual([]);
      // Compiled output is JavaScript, declarations and their maps (and the ES module build's package.json); sources are TypeScript.
      expect(files().filter((f) => /^(dist|bundle|esm)\//.test(f) && !/\.(js|d\.ts)(\.map)?$/.test(f) && f !== 'esm/package.json')).toEqual([]);
      expect(files().filter((f) => /^src\//.test(f) && !/\.ts$/.test(f))).toEqual([]);
      // Every declared entry brings something.
      expect(manifest.files!.filter((entry) => !entry.startsWith('!') && !files().some((f) => filesPattern(entry).test(f)))).toEqual([]);
    });

    it('every file its exports, main, types and bin name is in the tarball; types come first in each export', () => {
      expect(promisedFiles(manifest).filter((f) => !files().includes(f))).toEqual([]);
      for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
        if (typeof target === 'string') continue;
        // `workerd`, where a package has it: its ES module build, for Worker bundlers, at the same entry point.
        const conditions = Object.keys(target);
        expect({ subpath, conditions }).toEqual({ subpath, conditions: conditions.includes('workerd') ? ['types', 'workerd', 'default'] : ['types', 'default'] });
        if (target.workerd) expect(target.workerd).toBe(`./esm/${subpath === '.' ? '' : `${subpath.slice(2)}/`}index.js`);
        expect(target.types.replace(/^\.\//, '').replace(/\.d\.ts$/, '')).toBe(
          target.default
            .replace(/^\.\/(bundle|dist)\//, 'dist/')
            .replace(/\.js$/, '')
            .replace(/^dist\/(?!index$)([^/]+)$/, 'dist/$1/index'),
        );
      }
      if (manifest.exports) expect(manifest.exports['./package.json']).toBe('./package.json');
    });

    it('declares engines, sideEffects and public publishing with provenance', () => {
      expect(manifest.engines).toEqual({ node: JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).engines.node });
      expect(manifest.publishConfig).toEqual({ access: 'public', provenance: true });
      const sideEffects = manifest.sideEffects;
      if (Array.isArray(sideEffects)) expect(sideEffects.map((f) => f.replace(/^\.\//, '')).filter((f) => !files().includes(f))).toEqual([]);
      else expect(sideEffects).toBe(false);
    });
  });

  it('npm installed every package from its tarball, at the checkout version', () => {
    for (const { manifest } of PUBLISHED) {
      const installed = JSON.parse(readFileSync(join(project, 'node_modules', manifest.name, 'package.json'), 'utf8'));
      expect({ name: manifest.name, version: installed.version }).toEqual({ name: manifest.name, version: manifest.version });
    }
  });

  // Issue 31 #13: the SDK v1 (express and more) came with the test kit's 2025-11-25 client. No package lists it
  // now, none installs it, and kit.js below drives a 2025-11-25 session without it.
  it('installs no SDK v1: no package depends on @modelcontextprotocol/sdk, even as an optional peer', () => {
    for (const { manifest } of PUBLISHED) {
      const installed = JSON.parse(readFileSync(join(project, 'node_modules', manifest.name, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
      const lists = ['dependencies', 'peerDependencies', 'optionalDependencies'].filter((field) => installed[field]?.['@modelcontextprotocol/sdk'] !== undefined);
      expect({ name: manifest.name, lists }).toEqual({ name: manifest.name, lists: [] });
    }
    expect(existsSync(join(project, 'node_modules', '@modelcontextprotocol', 'sdk'))).toBe(false);
  });

  it('tsc compiled both consumers against the installed types (decorators with metadata)', () => {
    expect(steps.get('tsc')).toMatchObject({ code: 0, stdout: '' });
    for (const file of ['tools.js', 'server.js', 'kit.js', 'tools.mjs', 'server.mjs', 'kit.mjs']) expect(existsSync(join(project, 'dist', file))).toBe(true);
    expect(readFileSync(join(project, 'dist', 'tools.mjs'), 'utf8')).toContain('design:paramtypes');
  });

  it.each([
    ['CommonJS', 'kit.js', 'object'],
    ['ES module', 'kit.mjs', 'string'],
  ])('%s: the test kit drives the app in memory; core builds the schema; redis loads', async (_format, file, format) => {
    const result = await run(process.execPath, [join('dist', file)], project, 60_000, env);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({ format, schema: EXPECTED_SCHEMA, text: 'Hello, Ada!', invalid: true, redis: 'function' });
  });

  it.each([
    ['CommonJS', 'dist/server.js'],
    ['ES module', 'dist/server.mjs'],
  ])('%s: the installed toolwright calls a tool of the server over stdio', async (_format, server) => {
    const result = await npx('toolwright', 'call', server, 'greet', '--args', '{"name":"Ada"}');
    expect(result).toEqual({ code: 0, stdout: 'Hello, Ada!\n', stderr: '' });
  });

  it('the installed toolwright and create-toolwright run: --version, and a new project from the registry versions', async () => {
    const version = await npx('toolwright', '--version');
    expect(version).toEqual({ code: 0, stdout: `${tarball('@toolwright/cli').version}\n`, stderr: '' });
    const created = await npx('create-toolwright', 'made-by-create', '--template', 'minimal');
    expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });
    const generated = JSON.parse(readFileSync(join(project, 'made-by-create', 'package.json'), 'utf8'));
    // Installed from npm, not run from a checkout: the project depends on the published versions.
    expect(generated.dependencies).toMatchObject({ '@toolwright/core': tarball('@toolwright/core').version, '@toolwright/server': tarball('@toolwright/server').version });
  });

  it('the exports map is the only way in: a deep import is refused', async () => {
    const deep = await run(process.execPath, ['-e', "require('@toolwright/server/dist/index.js')"], project, 30_000, env);
    expect(deep.code).not.toBe(0);
    expect(deep.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
    const esm = await run(process.execPath, ['--input-type=module', '-e', "const m = await import('@toolwright/core'); console.log(typeof m.Tool, typeof m.buildRegistry)"], project, 30_000, env);
    expect(esm).toEqual({ code: 0, stdout: 'function function\n', stderr: '' });
  });
});
