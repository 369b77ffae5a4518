import { lstatSync, mkdirSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** Write permission for the group or for others. */
const SHARED_WRITE = 0o022;
/** Search (enter) permission for the group or for others. */
const SHARED_SEARCH = 0o011;

/**
 * Why `directory` may not hold compiled code this process will run, or undefined when it may.
 * It is created (mode 700) when missing. Whoever can write an entry in it decides what V8
 * runs, so: it must be a real directory (not a symbolic link), owned by this process's user and
 * writable by no group or other user, and so must the folders Node keeps in it (one per Node
 * version). When other users may enter the directory (mode 755, say), every entry in those
 * folders is checked the same way; in a directory only this user may enter (700, as created
 * here) no one else can reach them, and the start does not pay for a look at each. Where
 * there are no user ids (Windows), only the links are checked.
 */
export function privateDirectoryProblem(directory: string): string | undefined {
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
  } catch (error) {
    return `${directory} could not be created (${(error as Error).message}). Point TOOLWRIGHT_COMPILE_CACHE at a directory this user can create, or set it to off.`;
  }
  const uid = process.getuid?.();
  const fix = 'Point TOOLWRIGHT_COMPILE_CACHE at a directory only this user can write (mkdir -m 700 <dir>), or set it to off.';
  const check = (path: string, kind: 'directory' | 'file', modeMatters: boolean): { problem?: string; stats?: Stats } => {
    let stats: Stats;
    try {
      stats = lstatSync(path);
    } catch (error) {
      return { problem: `${path} could not be read (${(error as Error).message}). ${fix}` };
    }
    if (stats.isSymbolicLink()) return { problem: `${path} is a symbolic link: whoever controls where it points controls the compiled code this server runs. ${fix}` };
    if (kind === 'directory' ? !stats.isDirectory() : !stats.isFile()) return { problem: `${path} is not a ${kind}. ${fix}` };
    if (uid === undefined) return { stats };
    if (stats.uid !== uid) return { problem: `${path} belongs to user ${stats.uid}, not to this process's user ${uid}: that user could put compiled code in it that this server would run. ${fix}` };
    if (modeMatters && (stats.mode & SHARED_WRITE) !== 0)
      return { problem: `${path} can be written by other users (mode ${(stats.mode & 0o777).toString(8)}): they could put compiled code in it that this server would run. ${fix}` };
    return { stats };
  };
  const top = check(directory, 'directory', true);
  if (top.problem !== undefined) return top.problem;
  // Inside a directory no one else may enter, modes do not matter (Node creates its folders with the umask's).
  const enterable = uid !== undefined && (top.stats!.mode & SHARED_SEARCH) !== 0;
  for (const version of readdirSync(directory)) {
    const folder = join(directory, version);
    const { problem } = check(folder, 'directory', enterable);
    if (problem !== undefined) return problem;
    if (!enterable) continue;
    for (const entry of readdirSync(folder)) {
      const entryProblem = check(join(folder, entry), 'file', true).problem;
      if (entryProblem !== undefined) return entryProblem;
    }
  }
  return undefined;
}
