// @ts-check
/**
 * Generates the API reference (docs/api, not committed) with typedoc and
 * typedoc-plugin-markdown. The entry points are the public exports of every package:
 * each `exports` entry of packages/<name>/package.json whose types live in dist/ is
 * documented from the matching src/ file, so a new subpath export gets its page by itself.
 *
 *   node docs/scripts/api.mjs
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entryPoints = [];
for (const dir of readdirSync(join(root, 'packages')).sort()) {
  const pkgFile = join(root, 'packages', dir, 'package.json');
  if (!existsSync(pkgFile)) continue;
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    const types = typeof target === 'object' && target ? target.types : undefined;
    // ./internal is for Toolwright's own packages: no compatibility promise, no reference pages.
    if (typeof types !== 'string' || subpath === './package.json' || subpath === './internal') continue;
    const source = join(root, 'packages', dir, types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'));
    if (existsSync(source)) entryPoints.push(source);
    else console.warn(`docs:api: ${pkg.name} exports ${subpath}, but ${source} does not exist; skipped.`);
  }
}

rmSync(join(root, 'docs', 'api'), { recursive: true, force: true });
const typedoc = join(root, 'node_modules', 'typedoc', 'bin', 'typedoc');
const args = [typedoc, '--options', join(root, 'docs', 'typedoc.json'), ...entryPoints.flatMap((e) => ['--entryPoints', e])];
const result = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root });
if (result.status !== 0) process.exit(result.status ?? 1);
console.log(`docs:api: ${entryPoints.length} entry points documented in docs/api.`);
