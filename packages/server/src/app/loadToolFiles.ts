import { promises as fsPromises } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

// The files behind the `tools` option's glob patterns (loadToolClasses loads this on the first pattern).

/** `require` for CommonJS (also inside jest), `import()` for ES modules. */
export async function loadModule(file: string): Promise<Record<string, unknown>> {
  if (!file.endsWith('.mjs')) {
    try {
      return require(file) as Record<string, unknown>;
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_REQUIRE_ESM') throw error;
    }
  }
  return (await (require('../ground/importModule') as typeof import('../ground/importModule')).importModule(pathToFileURL(file).href)) as Record<string, unknown>;
}

/** The files a pattern matches under `cwd` (`**`, `*`, `?`, `{a,b}`), sorted; a pattern without a glob is the one path, if that file exists. */
export async function expandGlob(pattern: string, cwd: string): Promise<string[]> {
  const absolute = isAbsolute(pattern) ? pattern : resolve(cwd, pattern);
  const parts = absolute.split(/[\\/]/);
  const firstGlob = parts.findIndex((p) => /[*?{[]/.test(p));
  if (firstGlob === -1) return (await isFile(absolute)) ? [absolute] : [];
  const base = parts.slice(0, firstGlob).join(sep) || sep;
  const matcher = globToRegExp(parts.slice(firstGlob).join('/'));
  const files: string[] = [];
  await walk(base, async (file) => {
    if (matcher.test(relative(base, file).split(sep).join('/'))) files.push(file);
  });
  return files.sort();
}

async function isFile(path: string): Promise<boolean> {
  return fsPromises.stat(path).then(
    (stats) => stats.isFile(),
    () => false,
  );
}

async function walk(dir: string, visit: (file: string) => Promise<void>): Promise<void> {
  let entries;
  try {
    // Read through `fs.promises` at call time: importing node:fs/promises costs every server 2 ms at startup.
    entries = await fsPromises.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path, visit);
    else if (entry.isFile()) await visit(path);
  }
}

/** `**` spans directories, `*` and `?` stay within one, `{a,b}` is a choice. */
function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') re += '(?:';
    else if (c === '}') re += ')';
    else if (c === ',') re += '|';
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
