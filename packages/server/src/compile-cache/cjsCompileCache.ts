import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';
import * as zlib from 'node:zlib';

// Node's CommonJS loader internals: compile each module with V8's code cache, stored on disk,
// so the next start deserializes code instead of parsing and compiling it again.

/** The parts of `Module` this file relies on (stable since Node 12; not in @types/node). */
interface LoaderModule {
  exports: unknown;
  require(id: string): unknown;
  _compile(content: string, filename: string, format?: string): unknown;
}
interface LoaderStatics {
  prototype: LoaderModule;
  _resolveFilename(request: string, parent: LoaderModule, isMain: boolean, options?: unknown): string;
  _resolveLookupPaths(request: string, parent: LoaderModule): string[] | null;
  _extensions: unknown;
  _cache: unknown;
}

/** What the cache did in this process (`compileCache.counts`). */
export interface CompileCacheCounts {
  /** Modules whose stored code V8 accepted. */
  hits: number;
  /** Modules compiled from source (no entry, a stale entry, or one V8 refused); their entries are written shortly after. */
  misses: number;
}

/** Entry layout: CRC-32 of the source, its length in UTF-16 units, then V8's cached data. */
const HEADER_BYTES = 8;
/** Entries are written this long after the last module compiled from source (or at exit, if sooner). */
const WRITE_DELAY_MS = 1000;
/** Past this many entries, the oldest half is removed when entries are written: nothing else removes the entries of paths no longer loaded. */
const MAX_ENTRIES = 2000;
/** The wrapper Node puts around a module, on its own line so line and column numbers stay those of the file. */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const WRAPPER_TAIL = '\n})';

interface Unsaved {
  readonly entry: string;
  readonly header: Buffer;
  readonly script: vm.Script;
}

/**
 * Replaces `Module.prototype._compile` with one that uses and fills a code cache in
 * `directory` (which must exist and belong to this user). An entry is used only when the
 * module's source has the same CRC-32 and length as when it was stored; V8 also refuses data
 * from another V8 version or other flags. Entries are written a second after the last module
 * compiled from source, or at exit: by then they also hold the functions that ran at startup
 * (loading the app, the first requests), but not everything a long run compiled, which would
 * make every start deserialize, and keep in memory, code it may never run.
 */
export function installCjsCompileCache(directory: string): CompileCacheCounts {
  const loader = Module as unknown as LoaderStatics;
  const original = loader.prototype._compile;
  const counts: CompileCacheCounts = { hits: 0, misses: 0 };
  const unsaved: Unsaved[] = [];
  let timer: NodeJS.Timeout | undefined;
  const save = (): void => {
    timer = undefined;
    const written = unsaved.splice(0);
    for (const { entry, header, script } of written) writeEntry(entry, header, script.createCachedData());
    if (written.length > 0) prune(directory);
  };

  loader.prototype._compile = function compileWithCache(this: LoaderModule, content: string, filename: string, format?: string) {
    if (format !== undefined && format !== 'commonjs') return original.call(this, content, filename, format);
    const entry = path.join(directory, `${(zlib.crc32(filename) >>> 0).toString(16)}.bin`);
    const header = Buffer.alloc(HEADER_BYTES);
    header.writeUInt32LE(zlib.crc32(content) >>> 0, 0);
    header.writeUInt32LE(content.length, 4);
    const cachedData = readEntry(entry, header);
    // import() needs the dynamic-import hook of Node's own compile, which V8 drops from cached code.
    // Only such modules get no entry, so a module with a valid entry needs no second look.
    if (!cachedData && callsImport(content)) return original.call(this, content, filename, format);
    // A hashbang is a syntax error inside the wrapper; a comment of the same length keeps the columns.
    const body = content.startsWith('#!') ? `//${content.slice(2)}` : content;
    let script: vm.Script;
    try {
      script = new vm.Script(WRAPPER_HEAD + body + WRAPPER_TAIL, {
        filename,
        lineOffset: -1,
        cachedData,
      });
    } catch {
      // Let Node compile it and report the syntax error (or handle syntax it treats specially) its own way.
      return original.call(this, content, filename, format);
    }
    if (cachedData && !script.cachedDataRejected) counts.hits++;
    else {
      counts.misses++;
      unsaved.push({ entry, header, script });
      timer?.refresh();
      timer ??= setTimeout(save, WRITE_DELAY_MS).unref();
    }
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, requireFor(loader, this), this, filename, path.dirname(filename));
  };

  process.once('exit', save);
  return counts;
}

/**
 * Whether `source` may call `import()`. Occurrences that cannot be a call are passed over:
 * `x.import(`, a method `static import(`, and those on comment lines (`// ...`, and JSDoc's
 * ` * @param {import('x').T}`). Anything else counts, strings included.
 */
export function callsImport(source: string): boolean {
  for (let at = source.indexOf('import('); at !== -1; at = source.indexOf('import(', at + 7)) {
    const before = source[at - 1];
    if (before !== undefined && /[\w$.]/.test(before)) continue;
    const lineStart = source.lastIndexOf('\n', at) + 1;
    const line = source.slice(lineStart, at).trimStart();
    if (line.startsWith('//') || (line.startsWith('*') && !line.startsWith('*/')) || /(^|[\s;{}])static\s+$/.test(line)) continue;
    return true;
  }
  return false;
}

/** The `require` a module gets, as Node builds it. */
function requireFor(loader: LoaderStatics, mod: LoaderModule): NodeJS.Require {
  const require = ((id: string) => mod.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: unknown) => loader._resolveFilename(request, mod, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => loader._resolveLookupPaths(request, mod);
  require.resolve = resolve;
  require.main = process.mainModule;
  require.extensions = loader._extensions as NodeJS.RequireExtensions;
  require.cache = loader._cache as NodeJS.Dict<NodeJS.Module>;
  return require;
}

function readEntry(entry: string, header: Buffer): Buffer | undefined {
  let stored: Buffer;
  try {
    stored = fs.readFileSync(entry);
  } catch {
    return undefined;
  }
  return stored.length > HEADER_BYTES && stored.subarray(0, HEADER_BYTES).equals(header) ? stored.subarray(HEADER_BYTES) : undefined;
}

/** Keeps the directory from growing without end: removes the oldest half of the entries once there are too many. */
function prune(directory: string): void {
  try {
    const names = fs.readdirSync(directory).filter((name) => name.endsWith('.bin'));
    if (names.length <= MAX_ENTRIES) return;
    const aged = names.map((name) => ({ file: path.join(directory, name), mtime: fs.statSync(path.join(directory, name)).mtimeMs })).sort((a, b) => a.mtime - b.mtime);
    for (const { file } of aged.slice(0, aged.length >> 1)) fs.rmSync(file, { force: true });
  } catch {
    // Another process pruned at the same time, or the directory went away: nothing to keep tidy.
  }
}

/** Written to a file of this process, then renamed, so a process starting meanwhile never reads half an entry. */
function writeEntry(entry: string, header: Buffer, data: Buffer): void {
  const partial = `${entry}.${process.pid}`;
  try {
    fs.writeFileSync(partial, Buffer.concat([header, data]), { mode: 0o600 });
    fs.renameSync(partial, entry);
  } catch {
    fs.rmSync(partial, { force: true });
  }
}
