import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { UsageError } from '../cli/UsageError';
import { PACKAGE_ROOT } from './packageRoot';
import { TOOLWRIGHT_PACKAGES, type ToolwrightPackage } from './versions';

/** Where `--local` puts the packed tarballs, inside the new project. */
export const LOCAL_PACKAGES_DIR = 'local-packages';

/**
 * Packs the Toolwright packages of the checkout this CLI runs from (`npm pack`, so exactly
 * what would be published) into `<project>/local-packages/`, and returns the `file:`
 * specs to depend on them. Tarballs rather than `file:` folder links: a linked folder
 * resolves its own dependencies from the checkout, which would load class-validator and
 * typedi twice and lose decorator metadata between the copies.
 */
export async function packLocalPackages(projectDir: string): Promise<Record<ToolwrightPackage, string>> {
  const packagesDir = resolve(PACKAGE_ROOT, '..');
  const dirs = TOOLWRIGHT_PACKAGES.map((name) => join(packagesDir, name.replace('@toolwright/', '')));
  for (const [i, dir] of dirs.entries()) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest) || (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name !== TOOLWRIGHT_PACKAGES[i]) {
      throw new UsageError(`--local needs a Toolwright checkout, but ${dir} is not ${TOOLWRIGHT_PACKAGES[i]}. Run the CLI from the repo (node packages/cli/dist/bin.js).`);
    }
    if (!existsSync(join(dir, 'dist', 'index.js'))) {
      throw new UsageError(`--local packs built packages, but ${dir}/dist is missing. Run 'npm run build' at the repo root first.`);
    }
  }
  const destination = join(projectDir, LOCAL_PACKAGES_DIR);
  await mkdir(destination, { recursive: true });
  const { stdout } = await promisify(execFile)('npm', ['pack', ...dirs, '--pack-destination', destination, '--json', '--ignore-scripts'], {
    cwd: resolve(packagesDir, '..'),
    shell: process.platform === 'win32',
  });
  const packed = JSON.parse(stdout) as { name: string; filename: string }[];
  const specs = {} as Record<ToolwrightPackage, string>;
  for (const name of TOOLWRIGHT_PACKAGES) {
    const entry = packed.find((p) => p.name === name);
    if (!entry) throw new Error(`npm pack did not report ${name}; it reported ${packed.map((p) => p.name).join(', ')}.`);
    specs[name] = `file:${LOCAL_PACKAGES_DIR}/${entry.filename}`;
  }
  return specs;
}
