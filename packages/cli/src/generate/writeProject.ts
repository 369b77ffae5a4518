import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from '../cli/UsageError';
import type { GeneratedFile } from './ProjectOptions';

/** Files a folder may hold and still count as empty (what `git init` or an editor leaves). */
const IGNORABLE = new Set(['.git', '.DS_Store', 'Thumbs.db', '.idea', '.vscode']);

/** The entries that make `dir` non-empty; empty when it is missing or holds only ignorable ones. */
export async function blockingEntries(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => !IGNORABLE.has(name)).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    if (code === 'ENOTDIR') throw new UsageError(`${dir} is not a folder: it, or a folder above it, is a file. Choose a folder for the project.`);
    throw error;
  }
}

/** Refuses, before anything is written, a `dir` in which a file stands where a folder of the project goes, or the reverse (possible with --force). */
export async function checkWritable(dir: string, files: readonly GeneratedFile[]): Promise<void> {
  const conflicts = (await Promise.all(files.map((file) => conflict(dir, file.path)))).filter((c) => c !== undefined);
  if (conflicts.length > 0) throw new UsageError(`Cannot write the project into ${dir}: ${[...new Set(conflicts)].join('; ')}. Move it away, or choose another folder.`);
}

export async function writeProject(dir: string, files: readonly GeneratedFile[]): Promise<void> {
  for (const file of files) {
    const path = join(dir, ...file.path.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content);
  }
}

/** What in `dir` is in the way of writing `path` (a file where a folder goes, or the reverse), if anything. */
async function conflict(dir: string, path: string): Promise<string | undefined> {
  const parts = path.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const wantsFolder = i < parts.length;
    const existing = await stat(join(dir, ...parts.slice(0, i))).catch(() => undefined);
    if (existing === undefined) return undefined;
    if (wantsFolder !== existing.isDirectory()) return `'${parts.slice(0, i).join('/')}' is a ${wantsFolder ? 'file' : 'folder'} where the project needs a ${wantsFolder ? 'folder' : 'file'}`;
  }
  return undefined;
}
