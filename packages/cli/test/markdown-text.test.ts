/**
 * Server text in `toolwright docs` output: markdownText and markdownCode write it so that a Markdown
 * renderer shows it as it is. Checked on markdown-it with the docs site's options (VitePress: raw HTML
 * and linkify on); hostile-servers.e2e.test.ts renders a hostile server's reference with VitePress itself.
 */
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { anchors } from '../src/reference/anchors';
import { markdownCode, markdownJsonBlock, markdownText, type MarkdownPlace } from '../src/reference/markdownText';
import type { Contract } from '../src/contract/Contract';
import { fuzzRuns } from '../../core/test/fixtures/fuzzRuns';

const md = MarkdownIt({ html: true, linkify: true });
md.linkify.set({ fuzzyLink: false });

/** Whitespace runs as one space, as a browser shows them. */
const plain = (text: string): string => text.replace(/\s+/g, ' ').trim();
/** What a reader sees of HTML: its text, entities decoded. */
const shown = (html: string): string =>
  plain(
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&'),
  );
const tags = (html: string): string[] => [...html.matchAll(/<([a-z0-9]+)/g)].map((m) => m[1]);
const hrefs = (html: string): string[] => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);

/** Text made of the pieces Markdown, HTML, linkify, VitePress and Vue read as syntax, and plain words. */
const PIECES = [
  ...'ab 1.)\\`*_~[]<>!&#;{}|:-+=/\n\t()"\'@$%^?é',
  ...['    ', '  \n', '\\\n', '1. ', '- ', '> ', '# ', '```', '~~~', ':::', '---', '===', '[x]: ', '<div>', '<a href="javascript:x">', '<!--', '-->'],
  ...['https://', 'https://h.co/p_(q)', 'https://a', 'https://h.co/%41', 'xn--h.co', 'ftp://', 'FTP://', '//h.co/', 'library://', 'www.x.com', 'a@b.co'],
  ...['&amp;', '&#123;', 'x_y', ':tada:', '{{', '}}', '{onclick=x}'],
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((pieces) => pieces.join(''));

/** Each place as the reference and llms.txt use it, and the elements that place may render. */
const PLACES: [MarkdownPlace, (escaped: string) => string, string[]][] = [
  ['block', (t) => t, ['p', 'a']],
  ['line', (t) => `x ${t}`, ['p', 'a']],
  ['cell', (t) => `| h |\n| --- |\n| ${t} |`, ['table', 'thead', 'tbody', 'tr', 'th', 'td', 'a']],
  ['heading', (t) => `### ${t}`, ['h3', 'a']],
  ['link', (t) => `- [${t}](reference.md#x)`, ['ul', 'li', 'a']],
];

describe('markdownText', () => {
  it.each(PLACES)('in a %s, any text renders as itself: no element, link or cell of its own', (place, write, allowed) => {
    fc.assert(
      fc.property(text, (raw) => {
        const html = md.render(write(markdownText(raw, place)));
        const prefix = place === 'line' ? 'x ' : place === 'cell' ? 'h ' : '';
        expect(shown(html)).toBe(plain(`${prefix}${raw}`));
        expect(tags(html).filter((tag) => !allowed.includes(tag))).toEqual([]);
        // Links: the one the place has, or an http(s) URL of the text; never another scheme.
        for (const href of hrefs(html)) expect(href).toMatch(place === 'link' ? /^reference\.md#x$/ : /^(https?:\/\/|mailto:)/);
        if (place === 'cell') expect(html.match(/<td>/g)).toHaveLength(1);
        if (place === 'link') expect(html.match(/<a /g)).toHaveLength(1);
        // Vue's `{{ }}` and VitePress's {attrs} are checked with VitePress (hostile-servers.e2e.test.ts).
        expect(html).not.toContain('<!--');
      }),
      { numRuns: fuzzRuns(2000) },
    );
  });

  it('leaves ordinary prose as it is', () => {
    for (const prose of [
      "City name, e.g. 'Tokyo'",
      'Search the library catalogue by title or author. Use before lend_book to find the book id.',
      'When the book is due back, ISO 8601 date (YYYY-MM-DD); 3 > 2 & 2 > 1 at 10:30:45.',
      'library://books/42',
    ]) {
      expect(markdownText(prose)).toBe(prose);
    }
    expect(markdownText('See https://example.com/docs?q=1#top.')).toBe('See <https://example.com/docs?q=1#top>.');
  });

  it('escapes what would be syntax, and nothing around it', () => {
    expect(markdownText('<script>alert(1)</script>')).toBe('\\<script>alert(1)\\</script>');
    expect(markdownText('[x](javascript:alert(1)) ![i](x)')).toBe('\\[x\\](javascript:alert(1)) !\\[i\\](x)');
    expect(markdownText('*a* _b_ c_d ~~e~~ `f` :tada: &lt; {{ g }} {.h}')).toBe('\\*a\\* \\_b\\_ c_d \\~\\~e\\~\\~ \\`f\\` \\:tada: \\&lt; \\{&#123; g }} \\{.h}');
    expect(markdownText('<!--@include: ./secret.md-->')).toBe('&lt;!--@include: ./secret.md-->');
    expect(markdownText('https://evil.example/\\<b> ftp://x //y C:\\dir\\ end\\')).toBe('<https://evil.example/>\\\\\\<b> ftp:\\//x \\//y C:\\dir\\ end\\\\');
    expect(markdownText('a | b', 'cell')).toBe('a \\| b');
    expect(markdownText('a\n\n   b', 'cell')).toBe('a b');
    expect(markdownText('h ##', 'heading')).toBe('h \\##');
    expect(markdownText('# h\n    code\n- item\n1. item\n===\n| a |\n::: danger', 'block')).toBe('\\# h\ncode\n\\- item\n1\\. item\n\\===\n\\| a |\n\\::: danger');
  });
});

describe('markdownCode', () => {
  it.each(['line', 'cell'] as const)('in a %s, any text renders as itself, in code', (place) => {
    fc.assert(
      fc.property(text, (raw) => {
        const html = md.render(place === 'cell' ? `| h |\n| --- |\n| ${markdownCode(raw, place)} |` : `x ${markdownCode(raw, place)}`);
        expect(shown(html)).toBe(plain(`${place === 'cell' ? 'h' : 'x'} ${raw}`));
        expect(html).toContain('<code>');
        expect(html).not.toContain('<!--');
      }),
      { numRuns: fuzzRuns(2000) },
    );
  });

  it('fences with more backticks than the text holds, and keeps spans short', () => {
    expect(markdownCode('search_books')).toBe('`search_books`');
    expect(markdownCode('a`b``c')).toBe('```a`b``c```');
    expect(markdownCode('`x')).toBe('`` `x ``');
    expect(markdownCode('"a" | "b"', 'cell')).toBe('`"a" \\| "b"`');
    expect(markdownCode('{{ x }}')).toBe('<code>\\{&#123; x }}</code>');
  });
});

describe('markdownJsonBlock', () => {
  it('writes the same JSON in a fence no backtick run closes, with no `<!--`', () => {
    const value = { a: '```` <!-- x -->', b: [1, '{{ y }}'] };
    const block = markdownJsonBlock(value);
    expect(block.startsWith('`````json\n')).toBe(true);
    expect(block).not.toContain('<!--');
    const [, body] = /^`+json\n([\s\S]*)\n`+$/.exec(block) ?? [];
    expect(JSON.parse(body)).toEqual(value);
    expect(md.render(block)).toContain('\\u003c!-- x --&gt;');
  });
});

describe('anchors', () => {
  it('gives every item an id of its own that no renderer gives a heading, whatever the names', () => {
    const contract: Contract = {
      contractVersion: 1,
      server: { name: 's', version: '1' },
      tools: ['Tool', 'tool', 'tool-1', '__proto__', 'constructor', '<>', '天気'].map((name) => ({ name, inputSchema: { type: 'object' } })),
      resources: [{ uri: 'library://books', name: 'b' }],
      resourceTemplates: [{ uriTemplate: 'library://books/{id}', name: 't' }],
      prompts: [{ name: 'tool' }],
    };
    expect(anchors(contract)).toEqual({
      tools: ['tool.tool', 'tool.tool-1', 'tool.tool-1-1', 'tool.__proto__', 'tool.constructor', 'tool._', 'tool.天気'],
      resources: ['resource.librarybooks'],
      resourceTemplates: ['resource.librarybooksid'],
      prompts: ['prompt.tool'],
    });
  });
});
