/**
 * Acceptance: the README's other way in, "From the npm registry (once published)", run word for
 * word (read from the README, not retyped) against a registry on 127.0.0.1 that this test starts.
 * It publishes `npm pack` of each Toolwright package at the current version and forwards every
 * other request to the real npm registry, so `npm create toolwright@latest` installs
 * create-toolwright and the CLI from it exactly as it will once they are published, and the
 * generated project's `npm install` gets them from it too. npm sees the registry only through
 * `npm_config_registry` in the children's environment, with a cache of its own in a temporary
 * folder: the user's npm configuration and cache are never touched.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { INSTALL_SCRIPTS, TOOLWRIGHT_PACKAGES } from '../src/generate/versions';
import { startLocalRegistry, type LocalRegistry } from './helpers/localRegistry';
import { commands, REPO, shellBlocks } from './helpers/markdown';
import { run, transcript, type RunResult } from './helpers/run';

// One cold install of a project (jest, ts-jest, typescript, the SDK) from the network, then its build and tests.
jest.setTimeout(180_000);

const README_ROUTE = '### From the npm registry (once published)';
const PAGE_ROUTE = '## From the npm registry (once published)';
const GETTING_STARTED = 'docs/guide/getting-started.md';
const PUBLISHED = [...TOOLWRIGHT_PACKAGES, 'create-toolwright'];
const VERSION = (JSON.parse(readFileSync(join(REPO, 'packages', 'cli', 'package.json'), 'utf8')) as { version: string }).version;

/** What `npm pack --json` reports of one package. */
interface Packed {
  name: string;
  version: string;
  filename: string;
  integrity: string;
}

/** The files of a folder, relative to it, leaving out what an install or a build adds. */
function sourceFiles(dir: string): string[] {
  const built = /^(node_modules|dist)(\/|$)|^package-lock\.json$|\.tsbuildinfo$/;
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .filter((f) => !built.test(f))
    .sort();
}

describe('from the npm registry: the README commands against a local registry of this checkout', () => {
  let root: string;
  let registry: LocalRegistry;
  let packed: Packed[];
  let env: NodeJS.ProcessEnv;
  const steps = new Map<string, RunResult>();
  const project = () => join(root, 'a', 'my-server');

  /** Runs one docs block as a bash script that stops at the first failing command. */
  const runBlock = async (name: string, block: string, cwd: string) => {
    const result = await run('bash', ['-euo', 'pipefail', '-c', block], cwd, 300_000, env);
    steps.set(name, result);
    if (result.code !== 0) throw new Error(`${name} failed:\n${transcript(result)}\n--- registry requests\n${registry.log.join('\n')}`);
    return result;
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'toolwright-registry-'));
    const packs = join(root, 'packs');
    for (const dir of [packs, join(root, 'a'), join(root, 'b'), join(root, 'c')]) mkdirSync(dir);
    const dirs = PUBLISHED.map((name) => join(REPO, 'packages', name.replace('@toolwright/', '')));
    const missing = dirs.map((dir) => join(dir, 'dist')).filter((dist) => !existsSync(dist));
    if (missing.length > 0) throw new Error(`This test publishes the built packages, but ${missing.join(', ')} is missing: run 'npm run build' first.`);
    // Run from the pack folder: inside the monorepo npm would load the whole workspace first.
    const { stdout } = await promisify(execFile)('npm', ['pack', ...dirs, '--pack-destination', packs, '--json', '--ignore-scripts'], { cwd: packs });
    packed = JSON.parse(stdout) as Packed[];
    writeFileSync(join(root, 'npmrc'), '');
    registry = await startLocalRegistry(
      dirs.map((dir) => {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string };
        const tarball = packed.find((p) => p.name === manifest.name);
        if (!tarball) throw new Error(`npm pack did not report ${manifest.name}: ${JSON.stringify(packed)}`);
        return { manifest, tarball: join(packs, tarball.filename) };
      }),
    );
    env = {
      // As in a terminal: none of the npm_* variables that `npm test` or `npx jest` export to this
      // process (they pass empty strings for unset options, and an empty npm_config_yes cancels npm create).
      ...Object.fromEntries(
        Object.keys(process.env)
          .filter((k) => /^npm_/i.test(k))
          .map((k) => [k, undefined]),
      ),
      // A user configuration of its own, as on a fresh machine (the user's ~/.npmrc may say yes=false, for one).
      npm_config_userconfig: join(root, 'npmrc'),
      npm_config_registry: registry.url,
      npm_config_cache: join(root, 'npm-cache'),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      npm_config_loglevel: 'error',
    };

    const [route] = shellBlocks('README.md', README_ROUTE);
    await runBlock('README: create, install, test and call a server', route, join(root, 'a'));
    const [newCommand] = /`(npx @toolwright\/cli new [^`]+)`/.exec(readFileSync(join(REPO, GETTING_STARTED), 'utf8')) ?? [];
    if (newCommand) await runBlock('Getting started: npx @toolwright/cli new', newCommand.slice(1, -1), join(root, 'b'));
    const [withTemplate] = shellBlocks(GETTING_STARTED, '## Pick a template');
    await runBlock('Getting started: pick a template', withTemplate, join(root, 'c'));
    const [callIt] = shellBlocks(GETTING_STARTED, '## Call it from the command line');
    await runBlock('Getting started: call it from the command line', callIt, project());
  }, 600_000);

  afterAll(async () => {
    await registry?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('the README commands ran: npm create made a server that installs, passes its tests and answers a call', () => {
    const result = steps.get('README: create, install, test and call a server')!;
    expect(result.stdout).toContain('Created my-server from the minimal template');
    expect(result.stderr).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('Hello, Ada!');
  });

  it('the project depends on the published versions, and npm installed them from the registry', () => {
    const manifest = JSON.parse(readFileSync(join(project(), 'package.json'), 'utf8'));
    expect(manifest.dependencies).toMatchObject({ '@toolwright/core': VERSION, '@toolwright/server': VERSION });
    expect(manifest.devDependencies).toMatchObject({ '@toolwright/cli': VERSION });
    expect(JSON.stringify(manifest)).not.toMatch(/file:|local-packages|\.tgz/);
    const lock = JSON.parse(readFileSync(join(project(), 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string; integrity: string; hasInstallScript?: boolean }> };
    for (const name of TOOLWRIGHT_PACKAGES) {
      const ours = packed.find((p) => p.name === name)!;
      expect(lock.packages[`node_modules/${name}`]).toMatchObject({ version: VERSION, integrity: ours.integrity });
    }
    // npm create got create-toolwright from here; no request for one of ours went upstream.
    expect(registry.log).toEqual(expect.arrayContaining(['local /create-toolwright', `local /create-toolwright/-/create-toolwright-${VERSION}.tgz`]));
    expect(registry.log.filter((r) => r.startsWith('upstream /@toolwright') || r.startsWith('upstream /create-toolwright'))).toEqual([]);
  });

  it('the install prints no install-script warnings: allowScripts covers every dependency with one', () => {
    const lock = JSON.parse(readFileSync(join(project(), 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([, e]) => e.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(withScripts.filter((name) => !(name in INSTALL_SCRIPTS))).toEqual([]);
  });

  it("Getting started's registry route is the commands the README runs above", () => {
    const readme = new Set(commands(shellBlocks('README.md', README_ROUTE)));
    const page = commands(shellBlocks(GETTING_STARTED, PAGE_ROUTE));
    expect(page.length).toBeGreaterThan(3);
    expect(page.filter((c) => !readme.has(c))).toEqual([]);
  });

  it('npx @toolwright/cli new, as Getting started shows it, writes the same project as npm create', () => {
    expect(steps.has('Getting started: npx @toolwright/cli new')).toBe(true);
    const other = join(root, 'b', 'my-server');
    const files = sourceFiles(other);
    expect(files).toEqual(sourceFiles(project()));
    for (const file of files) expect({ file, text: readFileSync(join(other, file), 'utf8') }).toEqual({ file, text: readFileSync(join(project(), file), 'utf8') });
  });

  it('npm create with -- --template, as Getting started shows it, passes the flag through', () => {
    expect(steps.get('Getting started: pick a template')!.stdout).toContain('Created my-server from the weather template');
    expect(sourceFiles(join(root, 'c', 'my-server'))).toContain(join('src', 'weather.tools.ts'));
  });

  it("Getting started's command-line block builds, calls the tool and lints the schemas", () => {
    const result = steps.get('Getting started: call it from the command line')!;
    expect(result.stdout).toContain('Hello, Ada!');
    expect(result.stdout).toContain('greet');
  });
});
