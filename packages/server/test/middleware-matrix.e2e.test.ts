import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { join } from 'node:path';
import { tokenTable } from './fixtures/authTokens';

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

/**
 * The matrix: the same app (fixtures/pipeline-app.js) over a real stdio child and real HTTP on
 * 127.0.0.1, with the v1 client (2025-11-25) and the v2 client (2026-07-28).
 */
const { createPipelineApp } = require('./fixtures/pipeline-app.js') as { createPipelineApp: (o?: object) => Promise<App> };
const FIXTURE = join(__dirname, 'fixtures', 'pipeline-app.js');
type Era = 'legacy' | 'modern';
const rows = (['stdio', 'http'] as const).flatMap((kind) => (['legacy', 'modern'] as const).map((era) => ({ kind, era })));

describe.each(rows)('middleware and guards over $kind, $era era', ({ kind, era }) => {
  let listener: HttpListener | undefined;
  let url = '';
  beforeAll(async () => {
    if (kind === 'stdio') return;
    const app = await createPipelineApp();
    listener = await app.listen({
      transport: 'http',
      port: 0,
      logLevel: 'silent',
      exitOnSignal: false,
      auth: { verifyToken: tokenTable(() => url), allowAnonymous: true, authorizationServers: ['https://auth.example.com'] },
    });
    url = `http://127.0.0.1:${listener.port}/mcp`;
  });
  afterAll(() => listener?.close());

  async function connect(token?: string): Promise<LegacyClient | ModernClient> {
    const requestInit = token ? { headers: { authorization: `Bearer ${token}` } } : undefined;
    if ((era as Era) === 'legacy') {
      const client = new LegacyClient({ name: 'legacy', version: '1' });
      await client.connect(kind === 'stdio' ? new LegacyStdio({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' }) : new LegacyHttp(new URL(url), { requestInit }));
      return client;
    }
    const client = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(kind === 'stdio' ? new ModernStdio({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' }) : new ModernHttp(new URL(url), { requestInit }));
    return client;
  }

  it('runs the onion on tools, resources and prompts alike, and short-circuits and catches', async () => {
    const client = await connect();
    try {
      expect(textOf(await client.callTool({ name: 'order', arguments: {} }))).toBe('app(class(method(method)))');
      expect(textOf(await client.callTool({ name: 'refused', arguments: {} }))).toBe('app(class(answered by middleware))');
      expect(textOf(await client.callTool({ name: 'failing', arguments: {} }))).toBe('app(class(caught: boom))');
      const seen = textOf(await client.callTool({ name: 'seen', arguments: { count: 5 } }));
      expect(JSON.parse(seen.slice('app(class('.length, -2))).toEqual({
        kind: 'tool',
        name: 'seen',
        args: { count: 5 },
        era,
        version: era === 'modern' ? '2026-07-28' : '2025-11-25',
        hasSignal: true,
      });
      expect((await client.readResource({ uri: 'pages://home' })).contents[0]).toMatchObject({ uri: 'pages://home', text: 'app(class(page home))' });
    } finally {
      await client.close();
    }
  });

  it('hides and refuses guarded members for an anonymous caller', async () => {
    const client = await connect();
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('operate');
      expect((await client.listPrompts()).prompts).toEqual([]);
      await expect(client.callTool({ name: 'operate', arguments: {} })).rejects.toMatchObject({ code: -32602 });
      await expect(client.getPrompt({ name: 'hello', arguments: { name: 'Ada' } })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });

  if (kind === 'http') {
    it('shows and serves them to a caller the guard lets through', async () => {
      const client = await connect('admin');
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('operate');
        expect(textOf(await client.callTool({ name: 'operate', arguments: {} }))).toBe('app(class(operated))');
        expect((await client.getPrompt({ name: 'hello', arguments: { name: 'Ada' } })).messages[0].content).toEqual({ type: 'text', text: 'app(class(Hello Ada))' });
      } finally {
        await client.close();
      }
    });
  }
});
