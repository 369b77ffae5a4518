import 'reflect-metadata';
import { serve, type ServerType } from '@hono/node-server';
import { Hono, type MiddlewareHandler } from 'hono';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createApp } from '@toolwright/server';
import { toolwrightMiddleware, type ToolwrightHonoMiddleware, type ToolwrightHonoOptions } from '@toolwright/hono';
import { browserFetch } from '../../express/test/fixtures/browserFetch';
import { GreeterTools } from '../../express/test/fixtures/greeterTools';
import { ERAS, INITIALIZE, connectEra, post } from './fixtures/v2Clients';

/** A real Hono 4 app on @hono/node-server, its router's options as given, the endpoint mounted with `web.all('/mcp', mcp)`. */
async function start(
  options: ConstructorParameters<typeof Hono>[0],
  before?: MiddlewareHandler,
  endpoint: ToolwrightHonoOptions = {},
): Promise<{ base: string; mcp: ToolwrightHonoMiddleware; server: ServerType }> {
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
  const web = new Hono(options);
  web.get('/hello', (c) => c.json({ from: 'hono' }));
  const mcp = toolwrightMiddleware(app, { logError: () => {}, ...endpoint });
  if (before) web.use('/mcp', before);
  web.all('/mcp', mcp);
  await mcp.ready;
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: web.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, mcp, server };
}

async function stop(served: { mcp: ToolwrightHonoMiddleware; server: ServerType }): Promise<void> {
  await served.mcp.close();
  (served.server as import('node:http').Server).closeAllConnections();
  await new Promise<void>((resolve) => served.server.close(() => resolve()));
}

/** Reads the body first, as validators do: the endpoint gets the copy Hono kept. */
const bodyReader: MiddlewareHandler = async (c, next) => {
  if (c.req.method === 'POST') await c.req.json().catch(() => undefined);
  await next();
};

describe('Hono 4: a URL Hono routes to the endpoint though it is spelled otherwise is served, not answered 404 by Toolwright', () => {
  it.each([
    ['percent-encoded (/%6Dcp)', {}, '/%6Dcp', undefined],
    ['percent-encoded, after a middleware read the body', {}, '/%6dcp', bodyReader],
    ['with a trailing slash under strict: false', { strict: false }, '/mcp/', undefined],
  ])('%s', async (_, options, path, before) => {
    const served = await start(options, before);
    try {
      const response = await post(`${served.base}${path}?x=1`, INITIALIZE);
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toEqual(expect.any(String));
      expect(await response.text()).toContain('"protocolVersion":"2025-11-25"');
      // Its defences hold at that spelling too.
      expect((await post(`${served.base}${path}`, INITIALIZE, { origin: 'https://evil.example' })).status).toBe(403);
      for (const era of ERAS) {
        const client = await connectEra(era, `${served.base}${path}`);
        expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
        await client.close();
      }
      // A path Hono does not route here stays Hono's 404; its own routes answer.
      const missing = await fetch(`${served.base}/%6Dcpx`);
      expect([missing.status, await missing.text()]).toEqual([404, '404 Not Found']);
      expect(await (await fetch(`${served.base}/hello`)).json()).toEqual({ from: 'hono' });
    } finally {
      await stop(served);
    }
  });
});

describe('Hono 4, the endpoint with cors, called from a web page', () => {
  it.each(['legacy', 'auto'] as const)("the SDK v2 client (%s negotiation) gets through the browser's preflights: every header it sends is allowed", async (mode) => {
    const page = 'http://app.example.test';
    const served = await start({}, undefined, { cors: { origins: [page] }, allowedOrigins: [page] });
    const refused: string[] = [];
    const client = new Client({ name: 'page', version: '1' }, { versionNegotiation: { mode } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${served.base}/mcp`), { fetch: browserFetch(page, refused) }));
      expect((await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    } finally {
      await client.close().catch(() => undefined);
      await stop(served);
    }
    expect(refused).toEqual([]);
  });
});

describe('Hono 4: bodies the endpoint would not read as sent (compressed, or in a charset other than UTF-8) are 415, unread', () => {
  const bytes = Buffer.from(INITIALIZE);
  const send = (base: string, body: Uint8Array, headers: Record<string, string>) =>
    fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
  const errorOf = async (response: Response) => ((await response.json()) as { error: { code: number; message: string } }).error;

  it.each([
    ['the endpoint reading the body', undefined],
    ['after a middleware read the body (c.req.json())', bodyReader],
  ])('%s', async (_, before) => {
    const served = await start({}, before);
    try {
      for (const [coding, body] of [
        ['gzip', gzipSync(bytes)],
        ['br', brotliCompressSync(bytes)],
        ['zstd-x', bytes],
      ] as const) {
        const refused = await send(served.base, body, { 'content-encoding': coding });
        expect([refused.status, refused.headers.get('accept-encoding')]).toEqual([415, 'identity']);
        expect(await errorOf(refused)).toEqual({ code: -32000, message: expect.stringContaining(`Content-Encoding ${coding}; this endpoint reads bodies only as sent`) });
      }
      for (const [charset, body] of [
        ['latin1', Buffer.from(INITIALIZE.replace('raw', 'café'), 'latin1')],
        ['"UTF-16"', Buffer.from(INITIALIZE, 'utf16le')],
      ] as const) {
        const refused = await send(served.base, body, { 'content-type': `application/json; charset=${charset}` });
        expect(refused.status).toBe(415);
        expect(await errorOf(refused)).toEqual({ code: -32000, message: expect.stringContaining('JSON is read as UTF-8') });
      }
      expect((await send(served.base, bytes, { 'content-type': 'application/json; charset="utf-8"', 'content-encoding': 'identity' })).status).toBe(200);
      for (const era of ERAS) {
        const client = await connectEra(era, `${served.base}/mcp`);
        expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
        await client.close();
      }
    } finally {
      await stop(served);
    }
  });
});
