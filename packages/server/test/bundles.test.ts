import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Apps load @toolwright/core and @toolwright/server from `bundle/`, which
 * scripts/bundle-packages.js builds from tsc's output in `dist/` (`npm run build`).
 * These check that the bundle serves every entry point in full, from one copy of each module.
 */
const PACKAGES = join(__dirname, '..', '..');

interface Manifest {
  readonly name: string;
  readonly main: string;
  readonly exports: Record<string, string | { readonly types: string; readonly default: string }>;
}

function manifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(PACKAGES, dir, 'package.json'), 'utf8')) as Manifest;
}

function load(dir: string, file: string): Record<string, unknown> {
  return require(join(PACKAGES, dir, file)) as Record<string, unknown>;
}

describe.each(['core', 'server'])('the %s bundle', (dir) => {
  const { name, main, exports } = manifest(dir);
  const entries = Object.entries(exports).flatMap(([subpath, target]) => (typeof target === 'string' ? [] : [{ subpath, ...target }]));

  it('is what `main` points to', () => expect(main).toBe('bundle/index.js'));

  it.each(entries.map((e) => [`${name}${e.subpath.slice(1)}`, e]))('serves the same exports as tsc compiled for %s', (_, entry) => {
    const bundled = load(dir, entry.default);
    const compiled = load(dir, entry.types.replace(/\.d\.ts$/, '.js'));
    expect(Object.keys(bundled).sort()).toEqual(Object.keys(compiled).sort());
    for (const key of Object.keys(compiled)) expect(typeof bundled[key]).toBe(typeof compiled[key]);
  });

  it.each(entries.map((e) => [`${name}${e.subpath.slice(1)}`, e]))('gives an ES module every named export of %s', async (specifier, entry) => {
    const names = Object.keys(load(dir, entry.types.replace(/\.d\.ts$/, '.js')));
    const source = `import { ${names.join(', ')} } from '${specifier}'; process.stdout.write(JSON.stringify([${names.map((n) => `typeof ${n}`).join(', ')}]));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', source], { cwd: join(PACKAGES, '..') });
    expect(JSON.parse(stdout)).toEqual(names.map((n) => typeof load(dir, entry.default)[n]));
  });
});

it('shares one copy of each module between the entry points of a package', () => {
  expect(load('core', 'bundle/dto.js').Property).toBe(load('core', 'bundle/index.js').Property);
});

// Node resolves a bare require afresh (package.json `exports` and all) whenever the package was first
// loaded from another file, so each bundle requires each outside package from one place (Node's own
// `node:` modules skip resolution).
it.each(['core/bundle/all.js', 'server/bundle/all.js', 'server/bundle/web.js', 'server/bundle/lazy.js'])('requires each outside package once in %s', (file) => {
  const specifiers = [...readFileSync(join(PACKAGES, file), 'utf8').matchAll(/\brequire\("(?!node:)([^".][^"]*)"\)/g)].map((m) => m[1]);
  expect(specifiers.length).toBeGreaterThan(0);
  expect(specifiers.filter((s, i) => specifiers.indexOf(s) !== i)).toEqual([]);
});

// Node prints the whole source line an uncaught error was thrown from above its stack, and the bundles are a few
// very long lines: an app whose build failed, with no `.catch` on createApp, put 73 kB of minified code on the
// terminal. Each long line ends with the comment that tells node to leave the line out (scripts/markLongLines.js).
it('keeps an uncaught BuildError short on the terminal: node quotes no line of a bundle', async () => {
  const source = [
    "require('reflect-metadata');",
    "const { createApp } = require('@toolwright/server');",
    'class NoTools { hi() {} }',
    "createApp({ name: 'n', version: '1', tools: [NoTools] }).then((app) => app.listen({ transport: 'stdio' }));",
  ].join('\n');
  const failure = await promisify(execFile)(process.execPath, ['-e', source], { cwd: join(PACKAGES, '..') }).catch((error: { code: number; stderr: string }) => error);
  const { code, stderr } = failure as { code: number; stderr: string };
  expect(code).toBe(1);
  expect(stderr).toMatch(/^BuildError: Toolwright cannot build this app \(1 problem\):\n {2}1\. NoTools: has no @Tool, @Resource or @Prompt methods\n/);
  expect(stderr).toMatch(/\n {4}at buildRegistry \(.*core[/\\]bundle[/\\]all\.js:\d+:\d+\)\n/);
  expect(Math.max(...stderr.split('\n').map((line) => line.length))).toBeLessThan(300);
});

it.each(['core/bundle/all.js', 'server/bundle/all.js', 'server/bundle/web.js', 'server/bundle/lazy.js', 'server/bundle/extensions.js'])('marks every long line of %s that holds code', (file) => {
  const lines = readFileSync(join(PACKAGES, file), 'utf8').split('\n');
  const unmarked = lines.filter((line) => line.length > 200 && !line.includes('/*node-do-not-add-exception-line*/'));
  // markLongLines leaves unmarked only a line that lies wholly inside a template literal; none of these has one.
  expect(unmarked.map((line) => line.slice(0, 80))).toEqual([]);
});
