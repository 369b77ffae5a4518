import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { GeneratedFile } from './ProjectOptions';

/** Folders and files a build or an install adds, which are not part of a project's source. */
const IGNORED = new Set(['node_modules', 'dist', 'coverage', '.DS_Store']);

export interface Drift {
  /** Generated files that are missing from the folder. */
  readonly missing: string[];
  /** Files whose content differs from what the generator writes. */
  readonly changed: string[];
  /** Files in the folder that the generator does not write. */
  readonly extra: string[];
}

/** How a folder differs from freshly generated files (empty lists: identical). */
export async function projectDrift(dir: string, files: readonly GeneratedFile[]): Promise<Drift> {
  const onDisk = new Set(await listFiles(dir));
  const drift: Drift = { missing: [], changed: [], extra: [] };
  for (const file of files) {
    if (!onDisk.has(file.path)) drift.missing.push(file.path);
    else if ((await readFile(join(dir, file.path), 'utf8')) !== file.content) drift.changed.push(file.path);
    onDisk.delete(file.path);
  }
  drift.extra.push(...[...onDisk].sort());
  return drift;
}

async function listFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((e) => e.isFile() && !e.name.endsWith('.tsbuildinfo'))
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((path) => !path.split('/').some((part) => IGNORED.has(part)));
}
