import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root, against which Markdown paths are read. */
export const REPO = join(__dirname, '..', '..', '..', '..');

/** The shell blocks of a Markdown file's section under `heading` (up to the next heading of level 1 to 3), as written. */
export function shellBlocks(file: string, heading: string): string[] {
  const text = readFileSync(join(REPO, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`${file} has no '${heading}' section.`);
  const section = text.slice(start + heading.length + 2).split(/\n#{1,3} /)[0];
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** The commands of shell blocks, one per line or `&&` step, trimmed: to compare two pages' routes. */
export const commands = (blocks: readonly string[]): string[] =>
  blocks
    .join('\n')
    .split(/\n|&&/)
    .map((c) => c.trim())
    .filter(Boolean);
