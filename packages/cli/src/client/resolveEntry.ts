import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { UsageError } from '../cli/UsageError';

/** How to start a server: `node <file> [args]`, with the file found as the user gave it or from package.json. */
export interface ServerEntry {
  readonly command: string;
  readonly args: readonly string[];
  /** The entry file, absolute. */
  readonly file: string;
  /** The project folder (where package.json is), or the working directory. */
  readonly projectDir: string;
}

/**
 * Finds the server to start: the given file, else package.json's `main`, else `dist/server.js`.
 * Only compiled JavaScript: TypeScript would need a transpiler, and the fast ones (esbuild, tsx)
 * drop the decorator metadata Toolwright reads.
 */
export function resolveEntry(cwd: string, entry: string | undefined, serverArgs: readonly string[] = [], options: { mustExist?: boolean } = {}): ServerEntry {
  const projectDir = findProjectDir(cwd);
  let file: string;
  if (entry !== undefined) file = isAbsolute(entry) ? entry : resolve(cwd, entry);
  else {
    const main = readMain(projectDir);
    file = resolve(projectDir, main ?? 'dist/server.js');
  }
  const shown = relative(cwd, file) || file;
  if (/\.(c|m)?tsx?$/.test(file)) {
    throw new UsageError(`${shown} is TypeScript. Build the project ('npm run build') and pass the compiled file, e.g. dist/server.js.`);
  }
  if (options.mustExist !== false && !existsSync(file)) {
    const hint = entry === undefined ? " (from package.json 'main', or the default dist/server.js)" : '';
    throw new UsageError(`The server entry ${shown}${hint} does not exist. Run 'npm run build' first, or pass the entry file.`);
  }
  return { command: process.execPath, args: [file, ...serverArgs], file, projectDir };
}

function findProjectDir(cwd: string): string {
  for (let dir = cwd; ; dir = resolve(dir, '..')) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (resolve(dir, '..') === dir) return cwd;
  }
}

function readMain(projectDir: string): string | undefined {
  try {
    const main = (JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as { main?: unknown }).main;
    return typeof main === 'string' ? main : undefined;
  } catch {
    return undefined;
  }
}
