/** `toolwright docs` against the full example, a real server with tools, resources, templates and a prompt. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { memoryIo } from './helpers/memoryIo';

const FULL = join(__dirname, '..', '..', '..', 'examples', 'full');

describe('toolwright docs', () => {
  let out: string;
  let reference: string;
  let llms: string;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'toolwright-docs-'));
    const io = memoryIo(FULL);
    expect(await runCli(['docs', '--out', out], io)).toBe(0);
    expect(io.output()).toBe(`Wrote ${join(out, 'reference.md')} and ${join(out, 'llms.txt')}: 4 tools, 2 resources, 1 prompt.\n`);
    reference = readFileSync(join(out, 'reference.md'), 'utf8');
    llms = readFileSync(join(out, 'llms.txt'), 'utf8');
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes every tool with its parameters, output fields, hints and schema', () => {
    expect(reference).toMatch(/^# full 0\.1\.0\n/);
    expect(reference).toContain('### <a id="tool.search_books"></a>search_books\n\nSearch the library catalogue by title or author.');
    expect(reference).toContain('| `query` | `string` | yes |  | Words from the title or the author, e.g. "dune" |');
    expect(reference).toContain('| `genre` | `"fiction" \\| "science" \\| "history"` | no |  |');
    expect(reference).toContain('| `limit` | `integer` | no | `5` | Most results to return |');
    expect(reference).toContain('Hints: read-only.');
    expect(reference).toContain('| `dueDate` | `string` | yes |  | When the book is due back, ISO 8601 date |');
    expect(reference).toContain('<details><summary>Input schema</summary>');
  });

  it('writes resources, resource templates and prompts with their arguments', () => {
    expect(reference).toContain('## Resources\n\n### <a id="resource.librarycatalogue"></a>library://catalogue');
    expect(reference).toContain('## Resource templates\n\n### <a id="resource.librarybooksid"></a>library://books/\\{id}');
    expect(reference).toMatch(/## Prompts\n\n### <a id="prompt\.recommend"><\/a>recommend\n\n[^\n]+\n\n\| argument \| required \| description \|\n\| --- \| --- \| --- \|\n\| `genre` \| yes \|/);
  });

  it('writes an llms.txt whose links point at the reference headings', () => {
    expect(llms).toMatch(/^# full\n\n> An MCP server \(version 0\.1\.0\) with 4 tools, 2 resources and 1 prompt\./);
    expect(llms).toContain('- [reserve_book](reference.md#tool.reserve_book): Reserve a book, by its id from search_books');
    expect(llms).toContain('- [library://books/\\{id}](reference.md#resource.librarybooksid): One book by id, as JSON');
    // Each link leads to the id on its item's heading (the heading's own id differs between GitHub and VitePress).
    const links = [...llms.matchAll(/- \[((?:\\.|[^\]\\])+)\]\(reference\.md#([^)]+)\)/g)];
    expect(links).toHaveLength(7);
    for (const [, heading, id] of links) expect(reference).toContain(`\n### <a id="${id}"></a>${heading}\n`);
  });
});
