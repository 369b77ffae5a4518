import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { TemplateName } from './templates';

const SUFFIX = '.tpl';

/**
 * The raw files of a template: `templates/common` overlaid by `templates/<name>`, keyed by
 * their path in the project. Template files carry a `.tpl` suffix so that nothing in this repo
 * (jest, tsc) mistakes them for live sources.
 */
export function readTemplateFiles(templatesDir: string, template: TemplateName): Map<string, string> {
  const files = new Map<string, string>();
  for (const layer of ['common', template]) {
    const root = join(templatesDir, layer);
    for (const file of walk(root)) {
      if (!file.endsWith(SUFFIX)) continue;
      files.set(relative(root, file).split(sep).join('/').slice(0, -SUFFIX.length), readFileSync(file, 'utf8'));
    }
  }
  return files;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}
