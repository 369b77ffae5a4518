import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from '@toolwright/server/fetch';
import { fetchThrough, serveFetch } from './fixtures/serveFetch';

/**
 * The web-standard fetch handler, driven by real MCP clients: the v1 SDK `Client` at
 * 2025-11-25 and the v2 `Client` at 2026-07-28, against the same app (fixtures/eras-app.js),
 * both in process (the clients' `fetch` option hands each `Request` to the handler) and over a
 * real socket on 127.0.0.1 (a node:http bridge, as Deno.serve and Bun.serve are one).
 */
const { createErasApp } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App> };
const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

type Era = 'legacy' | 'modern';
interface Connected {
  client: LegacyClient | ModernClient;
  logs: string[];
  close(): Promise<void>;
}

/** A client of `era` on `url`; `fetchImpl` set: without a socket. */
async function connect(era: Era, url: string, fetchImpl: typeof fetch | undefined, headers: Record<string, string> = {}): Promise<Connected> {
  const logs: string[] = [];
  const options = { requestInit: { headers }, ...(fetchImpl && { fetch: fetchImpl }) };
  if (era === 'legacy') {
    const client = new LegacyClient({ name: 'legacy', version: '1' });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
    await client.connect(new LegacyHttp(new URL(url), options));
    return { client, logs, close: () => client.close() };
  }
  const client = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  client.setNotificationHandler('notifications/message', (n) => void logs.push(String(n.params.data)));
  await client.connect(new ModernHttp(new URL(url), options));
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return { client, logs, close: () => client.close() };
}

const modes: { name: string; options: FetchHandlerOptions }[] = [
  { name: 'stateless, SSE responses', options: { stateless: true } },
  { name: 'stateless, JSON responses', options: { stateless: true, jsonResponse: true } },
  { name: 'sessions', options: {} },
];
const rows = modes.flatMap((mode) => (['in process', 'over a socket'] as const).flatMap((via) => (['legacy', 'modern'] as const).map((era) => ({ ...mode, via, era }))));

describe.each(rows)('createFetchHandler ($name), $era client, $via', ({ options, via, era }) => {
  let app: App;
  let handler: FetchHandler;
  let served: Awaited<ReturnType<typeof serveFetch>> | undefined;
  let url = 'http://localhost/mcp';
  let c: Connected;

  beforeAll(async () => {
    app = await createErasApp();
    handler = createFetchHandler(app, options);
    if (via === 'over a socket') {
      served = await serveFetch(handler);
      url = `${served.url}/mcp`;
    }
    c = await connect(era, url, via === 'in process' ? fetchThrough(handler) : undefined);
  });
  afterAll(async () => {
    await c?.close();
    await handler?.close();
    await served?.close();
  });

  it('lists and calls tools of the same classes, in the era the client speaks', async () => {
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['ask', 'echo', 'wait', 'work']);
    // A stateless 2025-era server never saw the client's initialize: it knows no negotiated version.
    const version = era === 'modern' ? '2026-07-28' : options.stateless ? undefined : '2025-11-25';
    expect(textOf(await c.client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe(`${era} ${version}: hi`);
    expect((await c.client.callTool({ name: 'echo', arguments: { text: 3 } })).isError).toBe(true);
  });

  it('reads resources and gets prompts', async () => {
    expect((await c.client.readResource({ uri: 'mem://notes/7' })).contents[0]).toMatchObject({ text: 'note 7' });
    const prompt = await c.client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    expect(prompt.messages[0].content).toMatchObject({ type: 'text', text: 'Say hello to Ada.' });
  });

  if (options.jsonResponse !== true) {
    it('streams progress notifications before the result', async () => {
      const progress: number[] = [];
      const _meta = era === 'modern' ? { 'io.modelcontextprotocol/logLevel': 'info' } : undefined;
      const params = { name: 'work', arguments: { steps: 2 }, ...(_meta && { _meta }) };
      const onprogress = (p: { progress: number }) => void progress.push(p.progress);
      const result = c.client instanceof ModernClient ? await c.client.callTool(params, { onprogress }) : await c.client.callTool(params, undefined, { onprogress });
      expect(textOf(result)).toBe('worked 2');
      expect(progress).toEqual([1, 2]);
    });
  }

  it('counts sessions only in the session mode, and only for 2025-era clients', () => {
    expect(handler.sessionCount).toBe(options.stateless !== true && era === 'legacy' ? 1 : 0);
  });
});
