import { ConfigError } from '@toolwright/core';
import { promises as fsPromises } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Class } from '@toolwright/core';
import { isToolClass } from '@toolwright/core/internal';

/**
 * Resolves the `tools` option: classes are kept; glob patterns are expanded and each
 * matching module is loaded with dynamic `import()`; its exported tool classes are added.
 * The result has no duplicates and keeps the order given.
 */
export async function loadToolClasses(entries: readonly (Class | string)[], cwd: string): Promise<Class[]> {
  const classes = new Set<Class>();
  for (const entry of entries) {
    if (typeof entry !== 'string') {
      classes.add(entry);
      continue;
    }
    const files = await expandGlob(entry, cwd);
    if (files.length === 0) throw new ConfigError(`Toolwright: the pattern '${entry}' matched no files under ${cwd}. Build the project first, or fix the pattern.`);
    for (const file of files) {
      const exports = await loadModule(file);
      for (const value of Object.values(exports)) if (isToolClass(value)) classes.add(value);
    }
  }
  return [...classes];
}

/** `require` for CommonJS (also inside jest), `import()` for ES modules. */
async function loadModule(file: string): Promise<Record<string, unknown>> {
  if (!file.endsWith('.mjs')) {
    try {
      return require(file) as Record<string, unknown>;
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_REQUIRE_ESM') throw error;
    }
  }
  return (await (require('../ground/importModule') as typeof import('../ground/importModule')).importModule(pathToFileURL(file).href)) as Record<string, unknown>;
}

async function expandGlob(pattern: string, cwd: string): Promise<string[]> {
  const absolute = isAbsolute(pattern) ? pattern : resolve(cwd, pattern);
  const parts = absolute.split(/[\\/]/);
  const firstGlob = parts.findIndex((p) => /[*?{[]/.test(p));
  if (firstGlob === -1) return [absolute];
  const base = parts.slice(0, firstGlob).join(sep) || sep;
  const matcher = globToRegExp(parts.slice(firstGlob).join('/'));
  const files: string[] = [];
  await walk(base, async (file) => {
    if (matcher.test(relative(base, file).split(sep).join('/'))) files.push(file);
  });
  return files.sort();
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
