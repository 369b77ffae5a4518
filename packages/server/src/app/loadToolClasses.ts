import { ConfigError } from '@toolwright/core';
import type { Class } from '@toolwright/core';
import { isToolClass } from '@toolwright/core/internal';

/**
 * Resolves the `tools` option: classes are kept; glob patterns are expanded and each
 * matching module is loaded with dynamic `import()`; its exported tool classes are added.
 * The result has no duplicates and keeps the order given. The file walking (node:fs, node:url)
 * loads with the first pattern: an app that passes classes, and every edge Worker, skips it.
 * Patterns are resolved against `cwd`, by default the process's working directory, read with
 * the first pattern (on a Worker, reading node's `process` costs its cold start).
 */
export async function loadToolClasses(entries: readonly (Class | string)[], cwd: string | undefined): Promise<Class[]> {
  if (!Array.isArray(entries)) {
    const got = typeof entries === 'string' ? `the string ${JSON.stringify(entries)}` : entries === null ? 'null' : typeof entries;
    throw new ConfigError(`Toolwright: createApp's \`tools\` is a list of tool classes and/or glob patterns, e.g. tools: [WeatherTools] or tools: ['dist/tools/*.js'] (got ${got}).`);
  }
  const classes = new Set<Class>();
  for (const entry of entries) {
    if (typeof entry !== 'string') {
      classes.add(entry);
      continue;
    }
    const { expandGlob, loadModule } = require('./loadToolFiles') as typeof import('./loadToolFiles');
    cwd ??= process.cwd();
    const files = await expandGlob(entry, cwd);
    if (files.length === 0) throw new ConfigError(`Toolwright: the pattern '${entry}' matched no files under ${cwd}. Build the project first, or fix the pattern.`);
    for (const file of files) {
      const exports = await loadModule(file);
      for (const value of Object.values(exports)) if (isToolClass(value)) classes.add(value);
    }
  }
  return [...classes];
}
