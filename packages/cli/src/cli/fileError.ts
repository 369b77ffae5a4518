import { UsageError } from './UsageError';

/** What the file system said, in words, for the codes a user can fix. */
const REASONS = new Map<string, string>([
  ['ENOENT', 'it, or a folder on its path, does not exist'],
  ['ENOTDIR', 'a part of its path is a file, not a folder'],
  ['EISDIR', 'it is a folder, not a file'],
  ['EEXIST', 'a file stands where a folder is needed'],
  ['EACCES', 'permission denied'],
  ['EPERM', 'the operation is not permitted'],
  ['EROFS', 'the file system is read-only'],
  ['ENOSPC', 'the disk is full'],
  ['ENAMETOOLONG', 'the name is too long'],
  ['ELOOP', 'its symbolic links form a loop'],
]);

/**
 * A one-line usage error for a file the user named (or a client's config file) that cannot be
 * read or written: what failed, where, why and `fix`. Any other error is returned as it is.
 */
export function fileError(error: unknown, doing: 'read' | 'write', path: string, fix: string): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const reason = code === undefined ? undefined : REASONS.get(code);
  if (reason === undefined) return error;
  return new UsageError(`Cannot ${doing} ${path}: ${reason} (${code}). ${fix}`);
}
