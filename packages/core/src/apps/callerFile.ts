/** The part of a V8 call site read here. */
interface CallSite {
  getFileName(): string | null | undefined;
}

/**
 * The file name of the code that called `fn` (the module whose class a decorator factory is
 * applied in), read from V8's structured call sites: the file that runs, not a source-mapped
 * one: a path, or a `file:` URL for an ES module. Undefined where the runtime has no
 * `Error.captureStackTrace` or gives no file name.
 */
export function callerFile(fn: (...args: never[]) => unknown): string | undefined {
  const capture = (Error as { captureStackTrace?: (target: object, fn?: unknown) => void }).captureStackTrace;
  if (typeof capture !== 'function') return undefined;
  const holder: { stack?: unknown } = {};
  const prepare = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_error, sites) => sites;
    capture(holder, fn);
    const sites = holder.stack;
    const name = Array.isArray(sites) ? (sites[0] as CallSite | undefined)?.getFileName() : undefined;
    if (typeof name !== 'string' || name.length === 0) return undefined;
    return name;
  } catch {
    return undefined;
  } finally {
    Error.prepareStackTrace = prepare;
  }
}
