import { constants } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ToolwrightError } from '@toolwright/core';

/** One child of a folder, as the skills catalog walks it: a symlink, FIFO, socket or device is `unsupported`. */
export interface SkillFolderEntry {
  readonly name: string;
  readonly kind: 'file' | 'directory' | 'unsupported';
}

/** The skills folder as the catalog and the resource reads see it; every path is relative and `/`-separated. */
export interface SkillFolderFiles {
  list(dir: string): Promise<SkillFolderEntry[]>;
  /** A file's bytes, for the catalog: a file larger than one skill may publish is refused unread. */
  read(path: string): Promise<Uint8Array>;
  /** A published file's bytes, for `resources/read`: a file whose size is not the published one is refused unread. */
  readPublished(path: string, size: number): Promise<Uint8Array>;
}

/**
 * Opened without following a final symlink, and without blocking: a FIFO put where a file was
 * opens at once (and is then refused) instead of holding a worker thread until a writer comes.
 * Read per reader, not as the module loads: every server bundle holds this module, and on a
 * Worker reading node:fs's `constants` loads node:fs and node's `process` into its cold start.
 */
const openFlags = (): number => constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Reads a skills folder for `skills()`: lists folders (anything that is not a plain file or
 * folder is `unsupported`, so the catalog refuses the skill) and reads regular files only,
 * checked on the open descriptor. A read never blocks on a FIFO, never follows a symlink in
 * the last segment, and never loads more than it may serve: at most `maxBytes` (the per-skill
 * byte limit) for the catalog, exactly the published size for a resource read. Paths come
 * from the catalog, never from the wire; one that could leave the folder is refused all the same.
 */
export function skillFolderFiles(root: string, maxBytes: number): SkillFolderFiles {
  const base = resolve(root);
  const flags = openFlags();
  const fsPath = (path: string): string => {
    if (path === '') return base;
    const segments = path.split('/');
    if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\') || s.includes('\0'))) {
      throw new ToolwrightError(`skills: ${JSON.stringify(path)} is not a relative path inside the skills folder ${base}; this is a bug in the catalog, please report it`);
    }
    return join(base, ...segments);
  };
  const readFile = async (path: string, accept: (size: number) => string | undefined): Promise<Uint8Array> => {
    const handle = await open(fsPath(path), flags);
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new ToolwrightError(`skills: ${path} is not a regular file; replace it with a plain file (symlinks, FIFOs and devices are not served)`);
      const refusal = accept(stat.size);
      if (refusal !== undefined) throw new ToolwrightError(`skills: ${path} ${refusal}`);
      const bytes = new Uint8Array(stat.size);
      let read = 0;
      while (read < bytes.length) {
        const { bytesRead } = await handle.read(bytes, read, bytes.length - read, read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return read === bytes.length ? bytes : bytes.subarray(0, read);
    } finally {
      await handle.close();
    }
  };
  return {
    async list(dir) {
      const entries = await readdir(fsPath(dir), { withFileTypes: true });
      return entries.map((e) => ({ name: e.name, kind: e.isFile() ? 'file' : e.isDirectory() ? 'directory' : 'unsupported' }));
    },
    read: (path) =>
      readFile(path, (size) =>
        size > maxBytes ? `is ${size} bytes, more than the ${maxBytes} one skill may publish; make it smaller, move it out of the skills folder, or raise skills({ limits: { bytes } })` : undefined,
      ),
    readPublished: (path, expected) =>
      readFile(path, (size) =>
        size !== expected
          ? `is ${size} bytes on disk, not the ${expected} the server published; it changed since the server read the folder: restart the server (or run it with watch) to publish the new version`
          : undefined,
      ),
  };
}
