import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { println, type Io } from '../cli/Io';
import type { ServerEntry } from './resolveEntry';

/** The newest file under `dir` whose name passes `keep` (node_modules skipped), with its modification time. */
function newestFile(dir: string, keep: (name: string) => boolean): { file: string; mtimeMs: number } | undefined {
  let newest: { file: string; mtimeMs: number } | undefined;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const found = entry.isDirectory()
      ? entry.name === 'node_modules'
        ? undefined
        : newestFile(path, keep)
      : entry.isFile() && keep(entry.name)
        ? { file: path, mtimeMs: statSync(path).mtimeMs }
        : undefined;
    if (found && (!newest || found.mtimeMs > newest.mtimeMs)) newest = found;
  }
  return newest;
}

/**
 * When a TypeScript source under the project's `src/` was changed after the newest compiled
 * file beside the entry, the server started is the previous build: what it answers (a
 * contract, a schema, a call) is not the code on disk. Returns the warning to print, or
 * undefined. The whole output folder counts, its build info included.
 */
export function staleBuildWarning(entry: ServerEntry, cwd: string): string | undefined {
  const source = newestFile(join(entry.projectDir, 'src'), (name) => /\.(c|m)?tsx?$/.test(name) && !name.endsWith('.d.ts'));
  if (!source) return undefined;
  // tsc -b re-emits only the files that changed, and only touches its .tsbuildinfo when sources were touched but not changed.
  const built = newestFile(dirname(entry.file), (name) => /\.(c|m)?js$/.test(name) || name.endsWith('tsbuildinfo'));
  if (!built || source.mtimeMs <= built.mtimeMs) return undefined;
  const shown = (path: string) => relative(cwd, path) || path;
  return `Warning: ${shown(source.file)} changed after the last build (${shown(entry.file)} and the files beside it are older), so this reads the previous build. Run 'npm run build' first.`;
}

/** Prints the stale-build warning on stderr, if there is one. */
export function warnIfStale(entry: ServerEntry, io: Io): void {
  const warning = staleBuildWarning(entry, io.cwd);
  if (warning) println(io.stderr, io.err.yellow(warning));
}
