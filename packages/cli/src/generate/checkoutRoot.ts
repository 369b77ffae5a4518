import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { PACKAGE_ROOT } from './packageRoot';

/** The root package's name in the Toolwright repository. */
const MONOREPO_NAME = 'toolwright-monorepo';

/**
 * The root of the Toolwright checkout this CLI runs from, or undefined when it runs from an
 * installed package (inside node_modules). A checkout's packages may not be on the npm
 * registry at this version, so `toolwright new` depends on tarballs of them instead.
 */
export function checkoutRoot(packageRoot: string = PACKAGE_ROOT): string | undefined {
  if (packageRoot.split(sep).includes('node_modules')) return undefined;
  const root = resolve(packageRoot, '..', '..');
  const manifest = join(root, 'package.json');
  if (!existsSync(manifest)) return undefined;
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === MONOREPO_NAME ? root : undefined;
  } catch {
    return undefined;
  }
}
