/**
 * The commands that talk to a server, against servers that misbehave on purpose (a third-party
 * server, a proxied upstream, a buggy one): fixtures/hostile-server.js over stdio, and an HTTP
 * server in this process. What a server sends is shown, never obeyed by the terminal (nor by the
 * docs site that renders `docs` output); too much of it, or none, ends the command with a message and exit 3.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { markdownText } from '../src/reference/markdownText';
import { memoryIo } from './helpers/memoryIo';

const HOSTILE = join(__dirname, 'fixtures', 'hostile-server.js');
/** Renders Markdown files as the docs site does (VitePress, then Vue's template parser) and prints the result as JSON. */
const RENDER = join(__dirname, 'fixtures', 'render-markdown.mjs');
jest.setTimeout(120_000);

/** Characters a terminal obeys: ESC, BEL, CR, the C1 CSI and a bidi override, all in the fixture's text. */
// eslint-disable-next-line no-control-regex -- the characters a terminal obeys are what is checked for
const OBEYED = /[\u0007\u000d\u001b\u009b\u202e]/;
/** The fixture's text as it sends it... */
const RAW = '\u001b[31mred\u001b[0m \u001b]52;c;ZWNobyBwd25lZA==\u0007 \u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007 fake\rover \u0007 \u009b2J \u202eevil';
/** ...and as the CLI shows it. */
const SHOWN = String.raw`\x1b[31mred\x1b[0m \x1b]52;c;ZWNobyBwd25lZA==\x07 \x1b]8;;https://evil.example\x07link\x1b]8;;\x07 fake\x0dover \x07 \x9b2J \u202eevil`;

/** The Markdown and HTML the fixture's `markdown` mode puts in every string: one line... */
const MD =
  '<script>alert(1)</script> <img src=x onerror=alert(1)> [link](javascript:alert(1)) ![i](javascript:alert(2)) <javascript:alert(3)> ' +
  '{{ constructor.constructor("alert(4)")() }} &lt;b&gt; *em* _em_ ~~del~~ :tada: `code` ``` | pipe | \\*no em* ' +
  'https://evil.example/\\<b>b</b> ftp://evil.example/\\<i>i</i> <!--@include: ./secret.md--> {onclick=alert(5)}';
/** ...and lines that open blocks, after it in descriptions. */
const MD_BLOCKS = [
  '# Injected heading',
  '---',
  '- item',
  '1. item',
  '> quote',
  '```',
  '::: danger',
  '<div onclick="alert(6)">',
  '| a | b |',
  '| --- | --- |',
  '[x]: javascript:alert(7)',
  '',
  '    indented',
  'Setext',
  '===',
  '~~~',
].join('\n');
/** Whitespace runs as one space, as a browser shows them. */
const plain = (text: string): string => text.replace(/\s+/g, ' ').trim();
/** A description as the reader sees it: its paragraphs. */
const paragraphs = (text: string): string[] => text.split(/\n\s*\n/).map(plain);
const byName = (a: string, b: string): number => a.localeCompare(b);

/** A page as render-markdown.mjs returns it: Vue's template nodes, and what the compiler said. */
type VueNode = { tag: string; attrs: { name: string; value: string }[]; children: VueNode[] } | { text: string } | { interpolation: string } | { comment: string } | { other: number; source: string };
type Element = Extract<VueNode, { tag: string }>;
interface Page {
  html: string;
  nodes: VueNode[];
  blocks: number;
  errors: string[];
}
const isElement = (node: VueNode): node is Element => 'tag' in node;
const descendants = (nodes: VueNode[]): VueNode[] => nodes.flatMap((node) => [node, ...(isElement(node) ? descendants(node.children) : [])]);
const attr = (element: Element, name: string): string | undefined => element.attrs.find((a) => a.name === name)?.value;
/** The text an element shows, without VitePress's permalink (`a.header-anchor`). */
const textOf = (node: VueNode): string => ('text' in node ? node.text : isElement(node) && attr(node, 'class') !== 'header-anchor' ? node.children.map(textOf).join('') : '');
const children = (element: Element, tag: string): Element[] => element.children.filter((c): c is Element => isElement(c) && c.tag === tag);
/** A table's rows, each as the plain text of its cells. */
const rows = (table: Element): string[][] =>
  descendants(table.children)
    .filter((n): n is Element => isElement(n) && n.tag === 'tr')
    .map((tr) => tr.children.filter(isElement).map((cell) => plain(textOf(cell))));

describe('hostile servers', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'toolwright-hostile-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const cli = async (argv: string[]) => {
    const io = memoryIo(tmp);
    const code = await runCli(argv, io);
    return { code, stdout: io.output(), stderr: io.errors() };
  };
  const hostile = (mode: string, ...argv: string[]) => cli([...argv, '--', mode]);

  it('inspect and inspect --lint show names, descriptions and schemas with control characters escaped', async () => {
    for (const argv of [
      ['inspect', HOSTILE],
      ['inspect', '--lint', HOSTILE],
    ]) {
      const result = await hostile('evil', ...argv);
      expect(result.stdout + result.stderr).not.toMatch(OBEYED);
      expect(result.stdout).toContain(`srv${SHOWN} 1${SHOWN}: 1 tool, 1 resource, 1 prompt`);
      for (const shown of [`t${SHOWN} (title${SHOWN})`, `desc${SHOWN}`, `p${SHOWN}  string, optional, pattern x${SHOWN}  pd${SHOWN}`, `r://x${SHOWN}`, `pr${SHOWN}(a${SHOWN})`]) {
        expect(result.stdout).toContain(shown);
      }
    }
    expect((await hostile('evil', 'inspect', '--lint', HOSTILE)).stdout).toContain(`error   tool 't${SHOWN}': names are 1-128 characters`);
  });

  it('inspect --json and schema snapshot stay exact JSON, with what a terminal obeys as \\u escapes', async () => {
    const json = await hostile('evil', 'inspect', '--json', HOSTILE);
    expect(json.stdout).not.toMatch(OBEYED);
    expect(json.stdout).toContain(String.raw`\u009b2J \u202eevil`);
    const contract = JSON.parse(json.stdout);
    expect(contract.tools[0].description).toBe(`desc${RAW}`);
    const snapshot = await hostile('evil', 'schema', 'snapshot', HOSTILE);
    expect(snapshot.stdout).not.toMatch(OBEYED);
    expect(JSON.parse(snapshot.stdout)).toEqual(contract);
  });

  it('schema diff shows the changed names escaped', async () => {
    writeFileSync(join(tmp, 'old.json'), JSON.stringify({ contractVersion: 1, server: { name: 's', version: '1' }, tools: [] }));
    const diff = await hostile('evil', 'schema', 'diff', 'old.json', HOSTILE);
    expect(diff.stdout).not.toMatch(OBEYED);
    expect(diff.stdout).toContain(`tool 't${SHOWN}': new tool`);
  });

  it('call shows results, tool errors, protocol errors, links, resources, prompts, questions and the server log escaped; --json stays exact', async () => {
    const cases: [string[], number, string][] = [
      [['x'], 0, `ok${SHOWN}`],
      [['fail'], 1, `boom${SHOWN}`],
      [['protocol'], 3, `error: tools/call 'protocol' failed: bad${SHOWN} (JSON-RPC error -32602)`],
      [['link'], 0, `[resource link r://${SHOWN} (n${SHOWN})]\n[image image/png${SHOWN}, 3 bytes]`],
      [['--resource', 'r://x'], 0, `res${SHOWN}\n[m${SHOWN} r://b${SHOWN}, 3 bytes]`],
      [['--prompt', 'p'], 0, `user: msg${SHOWN}`],
      [['ask', '--decline'], 0, `The server asks: ask${SHOWN}`],
      [['x', '--verbose'], 0, `log${SHOWN}`],
    ];
    for (const [argv, code, shown] of cases) {
      const result = await hostile('evil', 'call', HOSTILE, ...argv);
      expect({ argv, code: result.code }).toEqual({ argv, code });
      expect(result.stdout + result.stderr).not.toMatch(OBEYED);
      expect(result.stdout + result.stderr).toContain(shown);
    }
    const structured = await hostile('evil', 'call', HOSTILE, 'structured');
    expect(structured.stdout).not.toMatch(OBEYED);
    expect(JSON.parse(structured.stdout)).toEqual({ [`k${RAW}`]: `v${RAW}` });
    const json = await hostile('evil', 'call', HOSTILE, 'x', '--json');
    expect(json.stdout).not.toMatch(OBEYED);
    expect(JSON.parse(json.stdout).content[0].text).toBe(`ok${RAW}`);
  });

  it('a line on stdout that is not JSON-RPC is quoted escaped (exit 3)', async () => {
    const result = await hostile('garbage', 'inspect', HOSTILE);
    expect(result.code).toBe(3);
    expect(result.stderr).not.toMatch(OBEYED);
    expect(result.stderr).toContain('The server wrote a line to stdout that is not JSON-RPC: "GARBAGE\\u001b[31mred');
  });

  it('docs writes its two files inside --out whatever the names, with control characters escaped', async () => {
    expect((await hostile('paths', 'docs', HOSTILE, '--out', 'paths')).code).toBe(0);
    expect(readdirSync(join(tmp, 'paths')).sort()).toEqual(['llms.txt', 'reference.md']);
    expect((await hostile('evil', 'docs', HOSTILE, '--out', 'evil')).code).toBe(0);
    for (const file of ['llms.txt', 'reference.md']) {
      const text = readFileSync(join(tmp, 'evil', file), 'utf8');
      expect(text).not.toMatch(OBEYED);
      expect(text).toContain(markdownText(`desc${SHOWN}`));
    }
  });

  it('docs writes what a server sends as text: rendered by the docs site (VitePress), it adds no element, attribute, link, heading or table cell', async () => {
    expect((await hostile('markdown', 'docs', HOSTILE, '--out', 'markdown')).code).toBe(0);
    const files = ['reference.md', 'llms.txt'].map((file) => join(tmp, 'markdown', file));
    // VitePress replaces `<!--@include: path-->` with that file anywhere in a page, code included, before it renders it.
    for (const file of files) expect(readFileSync(file, 'utf8')).not.toContain('<!--');
    const rendered = JSON.parse(execFileSync(process.execPath, [RENDER, ...files], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })) as Record<string, Page>;
    const [reference, llms] = files.map((file) => rendered[file]);

    const TOOLS = ['__proto__', 'constructor', 'toString', '<img src=x onerror=alert(1)>', 'a`b``c', 'x | y', '# h ##', 'Tool', 'tool'].sort(byName);
    const RESOURCES = [`javascript:alert(1)//${MD}`, 'https://evil.example/<script>alert(1)</script>'].sort(byName);
    const TEMPLATE = `x://{{id}}/{id}/${MD}`;
    const PROMPTS = ['__proto__', `pr ${MD}`].sort(byName);

    for (const page of [reference, llms]) {
      // Vue compiles the page as written: every element closed, no <script> or <style> block, no {{ }} expression.
      expect(page.errors).toEqual([]);
      expect(page.blocks).toBe(0);
      const nodes = descendants(page.nodes);
      expect(nodes.filter((n) => 'interpolation' in n || 'other' in n || 'comment' in n)).toEqual([]);
      const elements = nodes.filter(isElement);
      const tags = 'h1 h2 h3 p strong code a table thead tbody tr th td details summary div pre span button ul li blockquote'.split(' ');
      expect([...new Set(elements.map((e) => e.tag))].filter((tag) => !tags.includes(tag))).toEqual([]);
      const attrs = ['id', 'tabindex', 'class', 'href', 'target', 'rel', 'aria-label', 'title', 'style'];
      expect([...new Set(elements.flatMap((e) => e.attrs.map((a) => a.name)))].filter((name) => !attrs.includes(name))).toEqual([]);
      // Links: to a heading of the reference, or an http(s) URL the server wrote.
      for (const a of elements.filter((e) => e.tag === 'a' && attr(e, 'href') !== undefined)) expect(attr(a, 'href')).toMatch(/^(#|\.\/reference\.html#|https:\/\/evil\.example\/$)/);
    }

    // The reference: one heading per item, its name as written; every table keeps its columns.
    const page = reference.nodes.filter(isElement)[0];
    const headings = page.children.filter((e): e is Element => isElement(e) && /^h\d$/.test(e.tag)).map((h) => [h.tag, plain(textOf(h))]);
    expect(headings).toEqual([
      ['h1', plain(`srv ${MD} 1.0 ${MD}`)],
      ['h2', 'Tools'],
      ...TOOLS.map((name) => ['h3', plain(name)]),
      ['h2', 'Resources'],
      ...RESOURCES.map((uri) => ['h3', plain(uri)]),
      ['h2', 'Resource templates'],
      ['h3', plain(TEMPLATE)],
      ['h2', 'Prompts'],
      ...PROMPTS.map((name) => ['h3', plain(name)]),
    ]);
    const tables = descendants(page.children).filter((n): n is Element => isElement(n) && n.tag === 'table');
    expect(tables).toHaveLength(TOOLS.length * 2 + 1);
    for (const table of tables) {
      const [header, ...body] = rows(table);
      expect([
        ['parameter', 'type', 'required', 'default', 'description'],
        ['field', 'type', 'required', 'default', 'description'],
        ['argument', 'required', 'description'],
      ]).toContainEqual(header);
      for (const row of body) expect(row).toHaveLength(header.length);
    }

    // Every string shows as the server wrote it: the section of tool __proto__, resource, template and prompt.
    /** The elements under the `nth` h3 that shows `heading`, up to the next heading. */
    const section = (heading: string, nth = 0): Element[] => {
      const start = page.children.flatMap((e, i) => (isElement(e) && e.tag === 'h3' && plain(textOf(e)) === plain(heading) ? [i] : []))[nth];
      const end = page.children.findIndex((e, i) => i > start && isElement(e) && /^h[1-3]$/.test(e.tag));
      return page.children.slice(start + 1, end === -1 ? undefined : end).filter(isElement);
    };
    const tool = section('__proto__');
    expect(tool.filter((e) => e.tag === 'p').map((p) => plain(textOf(p)))).toEqual([
      plain(`title ${MD}`),
      ...paragraphs(`desc ${MD}\n${MD_BLOCKS}`),
      'Hints: read-only.',
      'Returns structured content:',
    ]);
    const [parameters, fields] = tool.filter((e) => e.tag === 'table');
    expect(rows(parameters).slice(1)).toEqual([
      ['constructor', 'number', 'no', '', plain(`ctor ${MD}`)],
      ['toString', 'object', 'no', '', ''],
      [plain(`toString.<b>n</b>|${MD}`), 'string', 'no', plain(JSON.stringify(`d ${MD}`)), ''],
      ['odd', 'object', 'no', '', ''],
      ['odd.x', 'any', 'no', '', ''],
      ['odd.y', 'any', 'no', '', ''],
      ['list', 'any[]', 'no', '', ''],
      [plain(`p|${MD}`), plain(`${JSON.stringify(`e|${MD}`)} | "\`\`"`), 'yes', plain(JSON.stringify(`e|${MD}`)), plain(`pd ${MD}\n${MD_BLOCKS}`)],
      ['types', plain(`string | <i>t</i>|${MD}`), 'no', '', ''],
    ]);
    expect(rows(fields).slice(1)).toEqual([[plain(`o|${MD}`), 'string', 'no', '', plain(MD)]]);
    const schema = JSON.parse(textOf(descendants(tool).find((n): n is Element => isElement(n) && n.tag === 'pre') as Element));
    expect(schema.properties[`p|${MD}`]).toEqual({ type: 'string', description: `pd ${MD}\n${MD_BLOCKS}`, enum: [`e|${MD}`, '``'], default: `e|${MD}` });
    expect(section(`javascript:alert(1)//${MD}`).map((p) => plain(textOf(p)))).toEqual([plain(`rn ${MD}, text/html ${MD}`), plain(`rt ${MD}`), ...paragraphs(`rd ${MD}\n${MD_BLOCKS}`)]);
    expect(section(TEMPLATE).map((p) => plain(textOf(p)))).toEqual([plain(`tn ${MD}`), plain(`td ${MD}`)]);
    const prompt = section('__proto__', 1);
    expect(prompt.filter((e) => e.tag === 'p').map((p) => plain(textOf(p)))).toEqual(paragraphs(`prd ${MD}\n${MD_BLOCKS}`));
    expect(rows(prompt.filter((e) => e.tag === 'table')[0])).toEqual([
      ['argument', 'required', 'description'],
      ['constructor', 'no', plain(`ad ${MD}`)],
      [plain(`a|${MD}`), 'yes', ''],
    ]);

    // llms.txt: a link per item, its name as written, to the id on that item's heading in the reference.
    const list = llms.nodes.filter(isElement)[0];
    expect(list.children.filter((e): e is Element => isElement(e) && /^h\d$/.test(e.tag)).map((h) => plain(textOf(h)))).toEqual([plain(`srv ${MD}`), 'Tools', 'Resources', 'Prompts']);
    expect(plain(textOf(children(list, 'blockquote')[0]))).toBe(plain(`An MCP server (version 1.0 ${MD}) with 9 tools, 3 resources and 2 prompts. Each link leads to its parameters and schema.`));
    const headingOf = new Map(
      descendants(page.children)
        .filter((n): n is Element => isElement(n) && n.tag === 'h3')
        .map((h) => [attr(children(h, 'a')[0], 'id'), plain(textOf(h))]),
    );
    const links = children(list, 'ul')
      .flatMap((ul) => children(ul, 'li'))
      .map((li) => children(li, 'a')[0]);
    expect(links.map((a) => plain(textOf(a)))).toEqual([...TOOLS, ...RESOURCES, TEMPLATE, ...PROMPTS].map(plain));
    expect(links.map((a) => headingOf.get((attr(a, 'href') ?? '').replace('./reference.html#', '')))).toEqual(links.map((a) => plain(textOf(a))));
    expect(plain(textOf(children(children(list, 'ul')[0], 'li')[0]))).toBe(plain(`${TOOLS[0]}: desc ${MD}`));
  });

  it('a 200 MB result on stdio fails fast with the limit it passed (exit 3), instead of timing out after a minute', async () => {
    // No clock here: a call that waited for its answer's timeout (the default 60 s) would end with the
    // timeout's message, not the limit's; one that hung would fail at this file's jest timeout (120 s).
    const result = await hostile('bigResult', 'call', HOSTILE, 'x');
    expect(result).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error: The server (on stdout) sent a message of more than 64 MiB, more than toolwright reads. Page long lists (nextCursor), and return large content as a resource link or in parts.\n',
    });
  });

  it('100,000 tools and a 50 MB description are read', async () => {
    expect((await hostile('many', 'inspect', HOSTILE)).stdout).toContain('hostile 1.0.0: 100000 tools, 0 resources, 0 prompts');
    const huge = await hostile('huge', 'inspect', '--json', HOSTILE);
    expect(JSON.parse(huge.stdout).tools[0].description).toHaveLength(50 * 1024 * 1024);
  });

  it('a server that never answers, or floods notifications instead, fails at --timeout and says how to wait longer (exit 3)', async () => {
    expect(await hostile('silent', 'inspect', HOSTILE, '--timeout', '1000')).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error: The server could not be reached: no answer within 1000 ms. If the server is slow, raise --timeout <ms>; run with --verbose to see its log (stderr).\n',
    });
    const flood = await hostile('flood', 'call', HOSTILE, 'x', '--timeout', '1000');
    expect(flood.code).toBe(3);
    expect(flood.stderr).toBe("error: tools/call 'x' failed: no answer within 1000 ms. If the server is slow, raise --timeout <ms>; run with --verbose to see its log (stderr).\n");
  });

  it('a server that serves HTTP only is named with its URL at once, not after the whole --timeout (exit 3)', async () => {
    // Told apart from the timeout's message ("no answer within 20000 ms"), which it would have got before.
    expect(await hostile('httpOnly', 'call', HOSTILE, 'x', '--timeout', '20000')).toEqual({
      code: 3,
      stdout: '',
      stderr:
        "error: The server serves Streamable HTTP at http://127.0.0.1:3130/mcp, not stdio: call it by its URL (toolwright call http://127.0.0.1:3130/mcp ...), or start it so that it serves stdio (app.listen({ transport: 'stdio' })).\n",
    });
  });

  it('an entry that ends without serving is asked whether it calls app.listen (exit 3)', async () => {
    expect(await hostile('endsAtOnce', 'call', HOSTILE, 'x')).toEqual({
      code: 3,
      stdout: '',
      stderr: "error: The server exited with code 0 before answering. A server keeps serving until its client closes: does the entry call app.listen({ transport: 'stdio' })?\n",
    });
  });

  it('a server that exits during a call is reported with its exit code (exit 3)', async () => {
    expect(await hostile('exitMidCall', 'call', HOSTILE, 'x')).toEqual({ code: 3, stdout: '', stderr: 'error: The server exited with code 7 before answering.\n' });
  });

  it('a schema or result nested 100,000 levels deep is refused with the limit it passed (exit 3), instead of a stack overflow (exit 70)', async () => {
    const refused = 'error: The server (on stdout) sent a message that nests objects and arrays more than 500 levels deep, more than toolwright reads. Flatten the result or schema.\n';
    for (const argv of [
      ['inspect', HOSTILE],
      ['inspect', '--json', HOSTILE],
      ['call', HOSTILE, 'deep'],
      ['call', '--json', HOSTILE, 'deep'],
    ]) {
      expect({ argv, ...(await hostile('deep', ...argv)) }).toEqual({ argv, code: 3, stdout: '', stderr: refused });
    }
    // 400 levels are read, shown and printed.
    expect((await hostile('nested', 'inspect', HOSTILE)).stdout).toContain('hostile 1.0.0: 1 tool, 0 resources, 0 prompts');
    const nested = await hostile('nested', 'call', '--json', HOSTILE, 'deep');
    expect({ code: nested.code, depth: JSON.stringify(JSON.parse(nested.stdout).structuredContent.a).indexOf(']') }).toEqual({ code: 0, depth: 400 });
  });

  describe('over HTTP, nested deep', () => {
    let server: Server;
    let url: string;
    const depth = 100_000;
    beforeAll(async () => {
      // Answers initialize, and a tool call with a result nested 100,000 levels deep: as JSON, or on an event stream under /sse.
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          // No event stream of its own (GET), no session to end (DELETE).
          if (req.method !== 'POST') return void res.writeHead(405).end();
          const message = JSON.parse(body) as { id?: number | string; method: string };
          if (message.id === undefined) return void res.writeHead(202).end();
          const result =
            message.method === 'initialize'
              ? JSON.stringify({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'deep', version: '1.0.0' } })
              : message.method === 'tools/call'
                ? `{"content":[],"structuredContent":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`
                : undefined;
          const text = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},${result === undefined ? '"error":{"code":-32601,"message":"Method not found"}' : `"result":${result}`}}`;
          if (req.url === '/sse') res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`event: message\ndata: ${text}\n\n`);
          else res.writeHead(200, { 'content-type': 'application/json' }).end(text);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('as JSON or on an event stream, is refused at once with the limit it passed (exit 3), instead of a stack overflow (exit 70) or a wait for the timeout', async () => {
      // No clock here: --timeout is far past this file's jest timeout (120 s), so a call that waited for it fails the test.
      for (const path of ['/mcp', '/sse']) {
        expect(await cli(['call', `${url}${path}`, 'deep', '--timeout', '600000'])).toEqual({
          code: 3,
          stdout: '',
          stderr: `error: ${url}${path} sent a message that nests objects and arrays more than 500 levels deep, more than toolwright reads. Flatten the result or schema.\n`,
        });
      }
    });
  });

  describe('over HTTP', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      // Answers every request with a JSON body of 65 MiB and more.
      server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          const chunk = 'x'.repeat(1024 * 1024);
          let sent = 0;
          const write = (): void => {
            while (sent < 200) {
              sent++;
              if (!res.write(chunk)) return void res.once('drain', write);
            }
            res.end();
          };
          res.on('error', () => undefined);
          write();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    });
    afterAll(() => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('an answer of more than 64 MiB is refused with the limit it passed (exit 3), not read into memory', async () => {
      expect(await cli(['inspect', url])).toEqual({
        code: 3,
        stdout: '',
        stderr: `error: ${url} sent a message of more than 64 MiB, more than toolwright reads. Page long lists (nextCursor), and return large content as a resource link or in parts.\n`,
      });
    });
  });
});
