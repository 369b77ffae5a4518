import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { UsageError } from '../cli/UsageError';
import { PACKAGE_ROOT } from './packageRoot';
import { ADAPTER_PACKAGES, TOOLWRIGHT_PACKAGES, type ToolwrightPackage } from './versions';

/** Every package a template may depend on: packed together, so projects of any template share one pack folder. */
const PACKED: readonly ToolwrightPackage[] = [...TOOLWRIGHT_PACKAGES, ...ADAPTER_PACKAGES];

/** Where `--local` puts the packed tarballs by default, inside the new project. */
export const LOCAL_PACKAGES_DIR = 'local-packages';

/**
 * Packs the Toolwright packages of the checkout this CLI runs from (`npm pack`, so exactly
 * what would be published) into `packDir` (default `<project>/local-packages/`), and returns
 * the `file:` specs, relative to the project, to depend on them. Projects that share a
 * `packDir` share the same specs, so an npm workspace of them installs one copy. Tarballs rather than `file:` folder links: a linked folder
 * resolves its own dependencies from the checkout, which would load class-validator and
 * typedi twice and lose decorator metadata between the copies.
 */
export async function packLocalPackages(projectDir: string, packDir: string = join(projectDir, LOCAL_PACKAGES_DIR)): Promise<Record<ToolwrightPackage, string>> {
  const packagesDir = resolve(PACKAGE_ROOT, '..');
  const dirs = PACKED.map((name) => join(packagesDir, name.replace('@toolwright/', '')));
  for (const [i, dir] of dirs.entries()) {
    const manifest = join(dir, 'package.json');
    const { name, main } = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; main?: string }) : {};
    if (name !== PACKED[i]) {
      throw new UsageError(`--local needs a Toolwright checkout, but ${dir} is not ${PACKED[i]}. Run the CLI from the repo (node packages/cli/dist/bin.js).`);
    }
    if (!main || !existsSync(join(dir, main))) {
      throw new UsageError(`--local packs built packages, but ${join(dir, main ?? 'dist')} is missing. Run 'npm run build' at the repo root first.`);
    }
  }
  await mkdir(packDir, { recursive: true });
  const packed = freshTarballs(dirs, packDir) ?? (await pack(dirs, packDir));
  const specs = {} as Record<ToolwrightPackage, string>;
  for (const name of PACKED) {
    const entry = packed.find((p) => p.name === name);
    if (!entry) throw new Error(`npm pack did not report ${name}; it reported ${packed.map((p) => p.name).join(', ')}.`);
    specs[name] = `file:${relative(projectDir, join(packDir, entry.filename)).split(sep).join('/')}`;
  }
  return specs;
}

interface Packed {
  name: string;
  filename: string;
}

async function pack(dirs: string[], packDir: string): Promise<Packed[]> {
  // Run from packDir: inside the monorepo npm would load the whole workspace first.
  const { stdout } = await promisify(execFile)('npm', ['pack', ...dirs, '--pack-destination', packDir, '--json', '--ignore-scripts'], {
    cwd: packDir,
    shell: process.platform === 'win32',
  });
  return JSON.parse(stdout) as Packed[];
}

/**
 * Tarballs already in packDir that are newer than the build they were packed from, so that
 * projects sharing a pack folder pack once; undefined when any is missing or stale.
 */
function freshTarballs(dirs: string[], packDir: string): Packed[] | undefined {
  const found: Packed[] = [];
  for (const dir of dirs) {
    const { name, version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string };
    const filename = `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
    const tarball = join(packDir, filename);
    if (!existsSync(tarball) || statSync(tarball).mtimeMs < newestBuild(dir)) return undefined;
    found.push({ name, filename });
  }
  return found;
}

/** The newest of package.json and the build output: tsc's `dist/` and, for the runtime packages, the `bundle/` made from it. */
function newestBuild(dir: string): number {
  const outputs = ['dist', 'bundle'].map((out) => join(dir, out)).filter((out) => existsSync(out));
  const files = outputs.flatMap((out) => readdirSync(out, { recursive: true, encoding: 'utf8' }).map((f) => join(out, f)));
  return Math.max(statSync(join(dir, 'package.json')).mtimeMs, ...files.map((f) => statSync(f).mtimeMs));
}
