import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, type ReadViewFile } from '@toolwright/core';

/** The largest view file read (5 MiB): a view is a page of HTML, not an asset store. */
export const MAX_VIEW_FILE_BYTES = 5 * 1024 * 1024;

/**
 * The reader `createApp` gives the build for `@UiResource(uri, { file })` views: resolves the
 * path (absolute, `file:` URL, or relative to the declaring module's directory), reads a
 * regular file of at most 5 MiB as strict UTF-8, once per path (views sharing a file share
 * one read). Throws a `ConfigError` saying what is wrong, with the resolved path.
 */
export function viewFileReader(): ReadViewFile {
  const cache = new Map<string, string>();
  return (path, declaredIn) => {
    const file = resolveViewPath(path, declaredIn);
    const cached = cache.get(file);
    if (cached !== undefined) return cached;
    const text = readViewFile(file);
    cache.set(file, text);
    return text;
  };
}

function resolveViewPath(path: string, declaredIn: string | undefined): string {
  if (path.startsWith('file:')) return fileURLToPath(path);
  if (isAbsolute(path)) return path;
  if (declaredIn === undefined) {
    throw new ConfigError(`'${path}' is relative, and the module that declares the class is unknown here (no V8 call sites); give an absolute path, e.g. join(__dirname, '${path}')`);
  }
  const module = declaredIn.startsWith('file:') ? fileURLToPath(declaredIn) : declaredIn;
  return resolve(dirname(module), path);
}

function readViewFile(file: string): string {
  let fd: number;
  try {
    // Non-blocking: a FIFO at the path must not hang the start-up.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(code === 'ENOENT' ? `no file at ${file}` : `${file} cannot be opened (${code ?? (error as Error).message}); make it readable by the user the server runs as`);
  }
  try {
    // Checked on the open descriptor, so the file read is the file checked.
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ConfigError(`${file} is not a regular file (a folder, FIFO or device); name the view's HTML file itself`);
    if (stat.size > MAX_VIEW_FILE_BYTES)
      throw new ConfigError(
        `${file} is ${stat.size} bytes, more than the ${MAX_VIEW_FILE_BYTES} a view may be; keep large scripts, styles and images out of the HTML and load them from a host the view's csp allows`,
      );
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes.subarray(0, read));
    } catch {
      throw new ConfigError(`${file} is not UTF-8 text; save it as UTF-8`);
    }
  } finally {
    closeSync(fd);
  }
}
