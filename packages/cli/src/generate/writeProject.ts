import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { GeneratedFile } from './ProjectOptions';

/** Files a folder may hold and still count as empty (what `git init` or an editor leaves). */
const IGNORABLE = new Set(['.git', '.DS_Store', 'Thumbs.db', '.idea', '.vscode']);

/** The entries that make `dir` non-empty; empty when it is missing or holds only ignorable ones. */
export async function blockingEntries(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => !IGNORABLE.has(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export async function writeProject(dir: string, files: readonly GeneratedFile[]): Promise<void> {
  for (const file of files) {
    const path = join(dir, ...file.path.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content);
  }
}
