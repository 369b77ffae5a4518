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
