/**
 * A code block that shows a whole server (it imports 'reflect-metadata' and calls `listen`)
 * claims that, copied as it is, it serves. For every such block on every page this check
 * compiles the snippet file the block includes, runs it as a process and lists its tools
 * through a real MCP client. A block written inline (a page's opening example) is written
 * to a file under docs/.inline-snippets/ (ignored by git) and run the same way. A block that
 * is only part of a program says so with an `<!-- fragment -->` line just before it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { compiledFiles } from './compileSnippets';
import { codeBlocks, docPages, type CodeBlock } from './codeBlocks';
import { textOf } from './helpers';

const DOCS = join(__dirname, '..');
const INLINE = join(DOCS, '.inline-snippets');

/** Blocks that claim to be a whole server, unless marked as a fragment. */
const runnable = docPages(DOCS)
  .flatMap((page) => codeBlocks(DOCS, page))
  .filter((block) => !block.fragment && /import 'reflect-metadata'/.test(block.code) && /\.listen\(/.test(block.code));

describe('docs: every code block that shows a whole server serves', () => {
  let compiled: Map<string, string>;
  /** The file each inline block is written to. */
  const inline = new Map(runnable.filter((b) => !b.include).map((b) => [b.where, join(INLINE, `${b.where.replace(/[^\w]+/g, '-')}.ts`)]));
  beforeAll(() => {
    rmSync(INLINE, { recursive: true, force: true });
    mkdirSync(INLINE, { recursive: true });
    for (const block of runnable) if (!block.include) writeFileSync(inline.get(block.where)!, block.code);
    compiled = compiledFiles([...new Set(runnable.flatMap((b) => (b.include ? [b.include.file] : [])))].concat([...inline.values()]));
  }, 120_000);
  afterAll(() => rmSync(INLINE, { recursive: true, force: true }));

  it('finds the servers on the home page, the Tools page and the Streamable HTTP page', () => {
    const where = runnable.map((b) => b.where);
    for (const page of ['index.md', 'guide/tools.md', 'guide/http.md']) expect(where.some((w) => w.startsWith(`${page}:`))).toBe(true);
  });

  it.each(runnable.map((b) => [b.where, b] as const))(
    '%s is the whole snippet file (or the whole inline block), and it serves',
    async (_, block: CodeBlock) => {
      if (block.include) {
        const whole = readFileSync(block.include.file, 'utf8')
          .replace(/^\s*\/\/ #(end)?region.*\n/gm, '')
          .trim();
        expect(block.code.trim()).toBe(whole);
      }
      const client = await serve(compiled.get(block.include?.file ?? inline.get(block.where)!)!, /transport: 'http'/.test(block.code));
      try {
        const { tools } = await client.listTools();
        expect(tools.length).toBeGreaterThan(0);
      } finally {
        await client.close();
      }
    },
    60_000,
  );

  it('the home page server converts, and answers bad arguments as its page shows', async () => {
    const home = runnable.find((b) => b.where.startsWith('index.md:'))!;
    const client = await serve(compiled.get(home.include!.file)!, false);
    try {
      expect(textOf(await client.callTool({ name: 'convert_temperature', arguments: { value: 100, to: 'fahrenheit' } }))).toBe('212.0 °F');
      const bad = await client.callTool({ name: 'convert_temperature', arguments: { value: '100', to: 'kelvin' } });
      expect(bad.isError).toBe(true);
      expect(`${textOf(bad)}\n`).toBe(readFileSync(join(DOCS, 'snippets/index/invalid-call.txt'), 'utf8'));
    } finally {
      await client.close();
    }
  }, 60_000);
});

/** Runs a compiled server and connects a client: over stdio, or over HTTP on a free port (PORT=0), at the URL it prints. */
async function serve(file: string, http: boolean): Promise<Client> {
  const client = new Client({ name: 'docs-check', version: '0.0.0' });
  if (!http) {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [file], stderr: 'ignore' }));
    return client;
  }
  const child: ChildProcess = spawn(process.execPath, [file], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let url: string | undefined;
  for (const deadline = Date.now() + 20_000; !(url = /MCP endpoint: (\S+)/.exec(stderr)?.[1]); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${file} did not start listening:\n${stderr}`);
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const close = client.close.bind(client);
  client.close = async () => {
    await close();
    child.kill();
  };
  return client;
}
