/**
 * Server text (names, titles, descriptions, URIs, schema values) written into Markdown so that it
 * renders as the same text and nothing else: no HTML, no link, no emphasis, heading, list, table
 * or code block of the server's making. Checked against CommonMark/GFM and the docs site's
 * renderer, VitePress (markdown-it with raw HTML on, `{attrs}`, emoji, `:::` containers, and
 * every page compiled as a Vue template, where `{{ }}` is code; and before all that, VitePress
 * replaces `<!--@include: path-->` anywhere in the file, code included, with that file). Only what
 * would be read as syntax is escaped, so ordinary prose stays as it was.
 */

/**
 * Where the text goes: paragraphs of their own (lines kept), a line of prose, a table cell, a
 * heading, a link's text (where a URL is not made a link: links do not nest).
 */
export type MarkdownPlace = 'block' | 'line' | 'cell' | 'heading' | 'link';

/**
 * An http(s) URL in prose, written as an autolink `<url>` (shown as written, its href
 * percent-encoded): left bare, markdown-it's linkify would take the URL and the backslash of an
 * escape after it (`https://x/\<b>` gave `<b>`). It stops at what could close it or be read
 * around it, and leaves trailing punctuation and an unbalanced `)` to the prose. One with a
 * percent escape, a punycode host or a host of other characters (`user@`, `a:::1`) stays text:
 * markdown-it would show it decoded or rearranged.
 */
const URL = /https?:\/\/(?![^\s<>"'`{}|\\^[\]]*(?:%|xn--))[\p{L}\p{N}][\p{L}\p{N}.-]*(?::\d{1,5})?(?=[/?#]|[.,:;!?'")*_~]*(?:[\s<>"'`{}|\\^[\]]|$))[^\s<>"'`{}|\\^[\]]*/u;
/**
 * Inline syntax. A backslash before punctuation, a URL or at a line end (an escape, a hard
 * break); a backtick, `*`, `~`, `[`, `]` and `<` (code, emphasis, strikethrough, links, images,
 * HTML, autolinks; `<!--` as `&lt;!--`, never an include); `_` but inside a word (where it never
 * emphasises); `&` that starts an entity; `{` (VitePress attributes `{onclick=...}`, Vue's
 * `{{ }}`); `:` that opens an emoji shortcode; `|` (in a table cell); a `/` before `/` and a
 * host that linkify would make a link of (`//h`, `ftp://h`, an http(s) URL left as text), but
 * not after another scheme (`library://books`).
 */
const SYNTAX = /\\(?=[!-/:-@[-`{-~]|$|https?:\/\/)|[`*~[\]<_{|]|&(?=#\d+;|#[xX][\da-fA-F]+;|[A-Za-z][A-Za-z\d]*;)|(?<![\p{L}\p{N}]):(?=[a-z\d_+-]+:)|\/(?=\/\S)/u;
const INLINE = new RegExp(`(${URL.source})|${SYNTAX.source}`, 'gu');
const INLINE_NO_LINKS = new RegExp(SYNTAX.source, 'gu');
const WORD = /[\p{L}\p{N}]/u;

/** A URL's tail that reads as prose: trailing punctuation, and a `)` with no `(` in the URL to close. */
function splitUrl(url: string): [string, string] {
  let end = url.length;
  const unbalanced = (): boolean => url.slice(0, end).split('(').length < url.slice(0, end).split(')').length;
  while (/[.,:;!?'"*_~]/.test(url[end - 1]) || (url[end - 1] === ')' && unbalanced())) end--;
  return [url.slice(0, end), url.slice(end)];
}

function escapeInline(text: string, place: MarkdownPlace): string {
  return text.replace(place === 'link' ? INLINE_NO_LINKS : INLINE, (c: string, ...rest: unknown[]) => {
    const offset = rest.find((value) => typeof value === 'number') as number;
    if (c.length > 1) {
      const [url, tail] = splitUrl(c);
      return `<${url}>${escapeInline(tail, 'link')}`;
    }
    if (c === '_') return WORD.test(text[offset - 1] ?? '') && WORD.test(text[offset + 1] ?? '') ? c : '\\_';
    if (c === '|') return place === 'cell' ? '\\|' : c;
    if (c === '/') return text[offset - 1] === ':' && !/(?:https?|ftp):$/i.test(text.slice(Math.max(0, offset - 6), offset)) ? c : '\\/';
    if (c === '<' && text.startsWith('!--', offset + 1)) return '&lt;';
    // A second `{` as an entity: VitePress keeps entities as written, so Vue never sees `{{`.
    if (c === '{') return text[offset - 1] === '{' ? '&#123;' : '\\{';
    return `\\${c}`;
  });
}

/**
 * Block syntax at the start of a line (after its indent is dropped, so it is never an indented
 * code block): a heading, a quote, a list item, a setext underline or thematic break, a table's
 * delimiter row, a VitePress `:::` container. The rest (fences, HTML blocks, link definitions)
 * already start with an escaped character.
 */
function escapeLineStart(line: string): string {
  return line.replace(/^[#>+=|:-]/, '\\$&').replace(/^(\d+)([.)])/, '$1\\$2');
}

/**
 * `text` from a server as Markdown that shows it literally in `place`. A `block` keeps its lines
 * and paragraphs (without indents and trailing spaces); the other places are one line. A `cell`
 * also escapes `|`; a `heading` its closing `#`s.
 */
export function markdownText(text: string, place: MarkdownPlace = 'line'): string {
  if (place === 'block') {
    return text
      .split('\n')
      .map((line) => escapeLineStart(escapeInline(line.trim(), place)))
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  }
  const escaped = escapeInline(text.replace(/\s*\n\s*/g, ' ').trim(), place);
  return place === 'heading' ? escaped.replace(/#+$/, '\\$&') : escaped;
}

/** The longest run of backticks in `text`: a fence of code must be longer. */
const longestBackticks = (text: string): number => (text.match(/`+/g) ?? []).reduce((longest, run) => Math.max(longest, run.length), 0);

/**
 * `text` as inline code, on one line: fenced by more backticks than it holds, padded when it
 * starts or ends with one. In a `cell`, `|` is escaped (GFM splits cells first, code spans too).
 * Text with `{{` or `<!--` becomes `<code>` around escaped text instead: VitePress leaves both
 * as they are in a code span, where Vue would run `{{ }}` and VitePress include a file.
 */
export function markdownCode(text: string, place: 'line' | 'cell' = 'line'): string {
  const flat = text.replace(/\n/g, ' ');
  if (flat.includes('{{') || flat.includes('<!--')) return `<code>${markdownText(flat, place)}</code>`;
  if (flat === '') return '` `';
  const fence = '`'.repeat(longestBackticks(flat) + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || (flat.startsWith(' ') && flat.endsWith(' ') && flat.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${place === 'cell' ? flat.replace(/\|/g, '\\|') : flat}${pad}${fence}`;
}

/**
 * A JSON value, indented, as a fenced `json` block (VitePress shows its `{{ }}` as written). The
 * fence is longer than any run of backticks in it; `<!--` is written `\u003c!--`, the same JSON.
 */
export function markdownJsonBlock(value: unknown): string {
  const json = JSON.stringify(value ?? null, null, 2).replace(/<!--/g, '\\u003c!--');
  const fence = '`'.repeat(Math.max(3, longestBackticks(json) + 1));
  return `${fence}json\n${json}\n${fence}`;
}
