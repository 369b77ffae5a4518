import * as nodeModule from 'node:module';

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
 * directory is `TOOLWRIGHT_COMPILE_CACHE` when set, else Node's own default (or
 * `NODE_COMPILE_CACHE`); `TOOLWRIGHT_COMPILE_CACHE=off` or `NODE_DISABLE_COMPILE_CACHE=1`
 * turns it off. Node 20 has no such cache: there the server starts without one.
 */
export function enableCompileCache(): CompileCacheStatus {
  const setting = process.env.TOOLWRIGHT_COMPILE_CACHE;
  if (setting === 'off' || setting === '0') return { enabled: false, reason: `TOOLWRIGHT_COMPILE_CACHE is ${setting}.` };
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return { enabled: false, reason: 'NODE_DISABLE_COMPILE_CACHE is set.' };
  const enable = nodeCache.enableCompileCache;
  if (typeof enable !== 'function') return { enabled: false, reason: `Node ${process.version} has no compile cache (module.enableCompileCache needs Node 22.8 or later).` };
  const result = enable(setting || undefined);
  const statuses = nodeCache.constants?.compileCacheStatus ?? {};
  if ((result.status === statuses.ENABLED || result.status === statuses.ALREADY_ENABLED) && result.directory) return { enabled: true, directory: result.directory };
  return { enabled: false, reason: result.message ?? 'Node did not enable its compile cache.' };
}
