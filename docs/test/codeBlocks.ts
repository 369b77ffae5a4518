import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One TypeScript code block of a docs page: written inline, or included from docs/snippets with `<<<`. */
export interface CodeBlock {
  /** `page.md:line`. */
  readonly where: string;
  /** The code as the page shows it. */
  readonly code: string;
  /** For `<<< @/snippets/file.ts#region`: the absolute file and the region (undefined: the whole file). */
  readonly include?: { readonly file: string; readonly region?: string };
  /** Marked `<!-- fragment -->` on the line before: part of a program, not meant to run as it is. */
  readonly fragment: boolean;
}

/** Every hand-written Markdown page of the site, relative to the docs folder (not the API reference `docs:api` generates in api/). */
export function docPages(docsDir: string): string[] {
  return readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md') && !/^api\//.test(path) && !/(^|\/)(node_modules|\.vitepress)\//.test(path))
    .sort();
}

/** The TypeScript blocks of one page, in order. */
export function codeBlocks(docsDir: string, page: string): CodeBlock[] {
  const lines = readFileSync(join(docsDir, page), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  const fragmentAt = (i: number) => {
    let j = i - 1;
    while (j >= 0 && lines[j].trim() === '') j--;
    return j >= 0 && lines[j].trim() === '<!-- fragment -->';
  };
  for (let i = 0; i < lines.length; i++) {
    const include = /^<<< @\/(\S+?\.ts)(?:#([\w-]+))?(?:\s|\{|$)/.exec(lines[i]);
    if (include) {
      const file = join(docsDir, include[1]);
      blocks.push({ where: `${page}:${i + 1}`, code: region(readFileSync(file, 'utf8'), include[2], `${page}:${i + 1}`), include: { file, region: include[2] }, fragment: fragmentAt(i) });
      continue;
    }
    const fence = /^(\s*)(`{3,})(ts|typescript)\b/.exec(lines[i]);
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i].trim().startsWith(fence[2]); i++) body.push(lines[i]);
    blocks.push({ where: `${page}:${start + 1}`, code: body.join('\n'), fragment: fragmentAt(start) });
  }
  return blocks;
}

/** The lines between `// #region name` and `// #endregion name`, without nested region markers; the whole file without a name. */
function region(source: string, name: string | undefined, where: string): string {
  const lines = source.split('\n');
  const marker = (line: string) => /^\s*\/\/ #(end)?region\b/.test(line);
  if (name === undefined) return lines.filter((l) => !marker(l)).join('\n');
  const start = lines.findIndex((l) => new RegExp(`^\\s*// #region ${name}\\s*$`).test(l));
  const end = lines.findIndex((l, i) => i > start && new RegExp(`^\\s*// #endregion ${name}\\s*$`).test(l));
  if (start === -1 || end === -1) throw new Error(`${where} includes region '${name}', which its file does not have.`);
  return lines
    .slice(start + 1, end)
    .filter((l) => !marker(l))
    .join('\n');
}
