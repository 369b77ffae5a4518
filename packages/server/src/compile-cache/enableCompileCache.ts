import * as nodeModule from 'node:module';
import { privateDirectoryProblem } from './privateDirectoryProblem';

/** What `@toolwright/server/compile-cache` did when it was imported. */
export type CompileCacheStatus =
  /** Node caches the code it compiles for every module loaded from now on, in `directory`. */
  { readonly enabled: true; readonly directory: string } | { readonly enabled: false; readonly reason: string };

/** `module.enableCompileCache` (Node 22.8+), which the Node 20 typings do not declare. */
type EnableCompileCache = (directory?: string) => { status: number; message?: string; directory?: string };
const nodeCache = nodeModule as unknown as { enableCompileCache?: EnableCompileCache; constants?: { compileCacheStatus?: Record<string, number> } };

/**
 * Turns on Node's own on-disk code cache (`module.enableCompileCache()`, Node 22.8+), so later
 * starts skip most of the parsing and compiling of every module loaded after this. The
 * directory is `TOOLWRIGHT_COMPILE_CACHE` when set, else `NODE_COMPILE_CACHE` (Node's own
 * switch, which Node has turned on before this runs), else `toolwright-compile-cache-<uid>` in
 * the system's temporary directory. `TOOLWRIGHT_COMPILE_CACHE=off` or
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off. Node 20 has no such cache: there the server
 * starts without one.
 *
 * Node checks each entry's checksum, so a damaged entry is compiled afresh; but V8 runs what
 * an entry with a valid checksum holds, and a crafted one aborts the process on every start.
 * So the directory this chooses must be private: owned by this process's user, writable by
 * no one else, with the same for what is in it. Otherwise the cache stays off, with the
 * reason in `compileCache` and a process warning.
 */
export function enableCompileCache(): CompileCacheStatus {
  const setting = process.env.TOOLWRIGHT_COMPILE_CACHE;
  if (setting === 'off' || setting === '0') return { enabled: false, reason: `TOOLWRIGHT_COMPILE_CACHE is ${setting}.` };
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return { enabled: false, reason: 'NODE_DISABLE_COMPILE_CACHE is set.' };
  const enable = nodeCache.enableCompileCache;
  if (typeof enable !== 'function') return { enabled: false, reason: `Node ${process.version} has no compile cache (module.enableCompileCache needs Node 22.8 or later).` };
  // NODE_COMPILE_CACHE: Node enabled its cache there at startup; enable() reports where.
  const directory = setting || (process.env.NODE_COMPILE_CACHE ? undefined : defaultDirectory());
  if (directory !== undefined) {
    const problem = privateDirectoryProblem(directory);
    if (problem !== undefined) {
      const reason = `The compile cache stays off: ${problem}`;
      process.emitWarning(reason, { code: 'TOOLWRIGHT_COMPILE_CACHE' });
      return { enabled: false, reason };
    }
  }
  const result = enable(directory);
  const statuses = nodeCache.constants?.compileCacheStatus ?? {};
  if ((result.status === statuses.ENABLED || result.status === statuses.ALREADY_ENABLED) && result.directory) return { enabled: true, directory: result.directory };
  return { enabled: false, reason: result.message ?? 'Node did not enable its compile cache.' };
}

/** `toolwright-compile-cache-<uid>` in the temporary directory: one per user, not Node's shared `node-compile-cache`. */
function defaultDirectory(): string {
  const { tmpdir } = require('node:os') as typeof import('node:os');
  const { join } = require('node:path') as typeof import('node:path');
  const uid = process.getuid?.();
  return join(tmpdir(), uid === undefined ? 'toolwright-compile-cache' : `toolwright-compile-cache-${uid}`);
}
