import 'reflect-metadata';
import express from 'express';
import type { Server } from 'node:http';
import { createApp } from '@toolwright/server';
import { toolwrightMiddleware, type ToolwrightMiddleware } from '@toolwright/express';
import { GreeterTools } from './fixtures/greeterTools';
import { ERAS, INITIALIZE, connectEra, post } from './fixtures/mcpClients';
import { connectionsLeftAfter, leaveAfterASession, openUnusedConnection } from '../../server/test/fixtures/unusedConnections';
import { listenExpress } from './fixtures/listenExpress';

/**
 * A real Express 5 app on 127.0.0.1 with its own routes and `express.json()`, the MCP
 * endpoint mounted at the root or under `/mcp`, driven by the v1 SDK client (2025-11-25,
 * sessions) and the v2 client (2026-07-28).
 */
async function serve(mount: 'root' | '/mcp', options: Parameters<typeof toolwrightMiddleware>[1] = {}): Promise<{ base: string; url: string; mcp: ToolwrightMiddleware; server: Server }> {
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
  const web = express();
  web.use(express.json({ limit: '2kb' }));
  web.get('/hello', (_req, res) => void res.json({ from: 'express' }));
  web.post('/echo', (req, res) => void res.json({ body: req.body as unknown }));
  const mcp = toolwrightMiddleware(app, { requestLogLevel: 'silent', ...options });
  if (mount === 'root') web.use(mcp);
  else web.use('/mcp', mcp);
  await mcp.ready;
  const { server, base } = await listenExpress(web);
  return { base, url: `${base}/mcp`, mcp, server };
}

async function stop(served: { mcp: ToolwrightMiddleware; server: Server }): Promise<void> {
  await served.mcp.close();
  await new Promise<void>((resolve) => served.server.close(() => resolve()));
}

describe.each(['root', '/mcp'] as const)('Express 5, middleware mounted at %s', (mount) => {
  let served: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    served = await serve(mount, { timeouts: { bodyMs: 2000 } });
  });
  afterAll(() => stop(served));

  it.each(ERAS)('a %s client lists and calls tools; bad arguments are a tool error', async (era) => {
    const client = await connectEra(era, served.url);
    try {
      expect(await client.listToolNames()).toEqual(['add', 'greet']);
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      expect(JSON.parse((await client.callTool('add', { a: 2, b: 3 })).content[0].text!)).toEqual({ sum: 5 });
      const bad = await client.callTool('add', { a: 'two', b: 3 });
      expect(bad.isError).toBe(true);
      expect(bad.content[0].text).toMatch(/a/);
      if (era === '2025-11-25') expect(client.sessionId).toEqual(expect.any(String));
    } finally {
      await client.close();
    }
  });

  it("the app's own routes still answer beside the endpoint, and unknown paths get Express's 404", async () => {
    expect(await (await fetch(`${served.base}/hello`)).json()).toEqual({ from: 'express' });
    const echoed = await fetch(`${served.base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":1}' });
    expect(await echoed.json()).toEqual({ body: { x: 1 } });
    const missing = await fetch(`${served.base}/nowhere`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/text\/html/);
    // Toolwright's health routes are off by default in an Express app: its own routes (or 404) answer.
    expect((await fetch(`${served.base}/healthz`)).status).toBe(404);
  });

  it('a body express.json() already parsed is used as is, not read again', async () => {
    // Read twice, the stream would have no data left and the request would wait for the body timeout.
    const response = await post(served.url, INITIALIZE);
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toEqual(expect.any(String));
    expect(await response.text()).toContain('"protocolVersion":"2025-11-25"');
  });

  it("express.json()'s refusals on the endpoint are JSON-RPC errors without the parser's text", async () => {
    const broken = await post(served.url, '{"jsonrpc": "2.0", "id": 1, "method": "secret-body-text');
    expect(broken.status).toBe(400);
    const body = (await broken.json()) as { error: { code: number; message: string } };
    expect(body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the request body is not valid JSON.' } });
    const large = await post(served.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(4000) } }));
    expect(large.status).toBe(413);
    expect(((await large.json()) as { error: { code: number; message: string } }).error.message).toMatch(/exceeds 2048 bytes/);
    // Elsewhere in the app, the same error stays with Express's own handler.
    const elsewhere = await fetch(`${served.base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get('content-type')).toMatch(/text\/html/);
  });

  it("keeps Toolwright's defences: a foreign Host or Origin is refused, a wrong media type is 415", async () => {
    const origin = await post(served.url, INITIALIZE, { origin: 'https://evil.example' });
    expect(origin.status).toBe(403);
    const media = await fetch(served.url, { method: 'POST', headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' }, body: INITIALIZE });
    expect(media.status).toBe(415);
    const host = await new Promise<number>((resolve, reject) => {
      const request = require('node:http').request(
        served.url,
        { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
        (res: import('node:http').IncomingMessage) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      request.on('error', reject);
      request.end(INITIALIZE);
    });
    expect(host).toBe(403);
  });
});

describe('Express 5, closing', () => {
  it('close() ends the sessions and refuses new MCP requests, then the server closes', async () => {
    const served = await serve('root');
    const client = await connectEra('2025-11-25', served.url);
    expect(served.mcp.sessionCount).toBe(1);
    await served.mcp.close();
    expect(served.mcp.sessionCount).toBe(0);
    const refused = await post(served.url, INITIALIZE);
    expect(refused.status).toBe(503);
    expect((await fetch(`${served.base}/hello`)).status).toBe(200);
    await new Promise<void>((resolve) => served.server.close(() => resolve()));
    await client.close().catch(() => undefined);
  });

  it('a start hook that fails is reported by ready, and the endpoint answers 503 while the app routes still work', async () => {
    const app = await createApp({
      name: 'broken',
      version: '1.0.0',
      tools: [GreeterTools],
      onStart: () => {
        throw new Error('no database');
      },
    });
    const web = express();
    web.use(express.json());
    web.get('/hello', (_req, res) => void res.json({ from: 'express' }));
    const mcp = toolwrightMiddleware(app, { requestLogLevel: 'silent' });
    web.use(mcp);
    await expect(mcp.ready).rejects.toThrow(/no database/);
    const { server, base } = await listenExpress(web);
    try {
      expect((await post(`${base}/mcp`, INITIALIZE)).status).toBe(503);
      expect((await fetch(`${base}/hello`)).status).toBe(200);
    } finally {
      await mcp.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('Express 5, middleware mounted before express.json()', () => {
  it('reads the body itself, within maxBodyBytes, and leaves other bodies to express.json()', async () => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const web = express();
    const mcp = toolwrightMiddleware(app, { requestLogLevel: 'silent', maxBodyBytes: 1024 });
    web.use(mcp);
    web.use(express.json());
    web.post('/echo', (req, res) => void res.json({ body: req.body as unknown }));
    const { server, base } = await listenExpress(web);
    try {
      const client = await connectEra('2026-07-28', `${base}/mcp`);
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      await client.close();
      const large = await post(`${base}/mcp`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2000) } }));
      expect(large.status).toBe(413);
      expect(((await large.json()) as { error: { message: string } }).error.message).toMatch(/exceeds 1024 bytes/);
      const echoed = await fetch(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":1}' });
      expect(await echoed.json()).toEqual({ body: { x: 1 } });
    } finally {
      await mcp.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('Express 5, a body parser that already read the body before the middleware', () => {
  async function serveAfter(parser: express.RequestHandler, maxBodyBytes: number): Promise<{ url: string; stop(): Promise<void> }> {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const web = express();
    web.use(parser);
    const mcp = toolwrightMiddleware(app, { requestLogLevel: 'silent', maxBodyBytes });
    web.use(mcp);
    const { server, base } = await listenExpress(web);
    const url = `${base}/mcp`;
    return { url, stop: () => stop({ mcp, server }) };
  }
  const padded = (bytes: number) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(bytes) } });
  const errorOf = async (response: Response) => ((await response.json()) as { error: { code: number; message: string } }).error;

  it.each([
    ['express.text()', express.text({ type: '*/*' })],
    ['express.raw()', express.raw({ type: '*/*' })],
  ])('%s for every media type: the text it kept is parsed as JSON, within maxBodyBytes', async (_, parser) => {
    const served = await serveAfter(parser, 1024);
    try {
      for (const era of ERAS) {
        const client = await connectEra(era, served.url);
        expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
        await client.close();
      }
      const broken = await post(served.url, '{"jsonrpc": "2.0", "id": 1, "method": "secret-body-text');
      expect(broken.status).toBe(400);
      expect(await errorOf(broken)).toEqual({ code: -32700, message: 'Parse error: the request body is not valid JSON.' });
      const large = await post(served.url, padded(2000));
      expect(large.status).toBe(413);
      expect((await errorOf(large)).message).toMatch(/exceeds 1024 bytes/);
      // Another media type is still refused as such, not parsed.
      const media = await fetch(served.url, { method: 'POST', headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' }, body: INITIALIZE });
      expect(media.status).toBe(415);
    } finally {
      await served.stop();
    }
  });

  it('express.json() with a larger limit than maxBodyBytes: maxBodyBytes still holds, sent whole or chunked', async () => {
    const served = await serveAfter(express.json({ limit: '1mb' }), 1024);
    try {
      const whole = await post(served.url, padded(2000));
      expect(whole.status).toBe(413);
      expect(await errorOf(whole)).toEqual({ code: -32000, message: 'Payload too large: the request body exceeds 1024 bytes. Send less data, or raise maxBodyBytes.' });
      const chunks = new Blob([padded(2000)]).stream();
      const chunked = await fetch(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: chunks,
        duplex: 'half',
      } as RequestInit);
      expect(chunked.status).toBe(413);
      const client = await connectEra('2026-07-28', served.url);
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      await client.close();
    } finally {
      await served.stop();
    }
  });

  it.each(['null', '"ping"', '42'])("JSON express.json()'s strict mode refuses (%s) is Invalid Request (-32600), as standalone, not a parse error", async (body) => {
    const served = await serveAfter(express.json(), 1024);
    try {
      const response = await post(served.url, body);
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toEqual({ code: -32600, message: 'Invalid Request: a JSON-RPC message is a JSON object.' });
    } finally {
      await served.stop();
    }
  });

  it('an empty body, which express.json() reads as {}, is a parse error (-32700), as standalone', async () => {
    const served = await serveAfter(express.json(), 1024);
    try {
      const response = await post(served.url, '');
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toEqual({ code: -32700, message: 'Parse error: the request body is not valid JSON.' });
    } finally {
      await served.stop();
    }
  });
});

describe('Express 5, with bearer auth', () => {
  it.each(ERAS)('%s: no token is 401 with the challenge; the RFC 9728 metadata is served at the root; a token gets in', async (era) => {
    const hour = Math.floor(Date.now() / 1000) + 3600;
    const served = await serve('root', {
      auth: {
        resource: 'https://mcp.example.com/mcp',
        authorizationServers: ['https://auth.example.com'],
        verifyToken: (token) => (token === 'good' ? { token, clientId: 'app', scopes: [], expiresAt: hour } : undefined),
      },
    });
    try {
      const anonymous = await post(served.url, INITIALIZE);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toContain('resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"');
      const metadata = await fetch(`${served.base}/.well-known/oauth-protected-resource/mcp`);
      expect(await metadata.json()).toMatchObject({ resource: 'https://mcp.example.com/mcp', authorization_servers: ['https://auth.example.com'] });
      const client = await connectEra(era, served.url, { authorization: 'Bearer good' });
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      await client.close();
    } finally {
      await stop(served);
    }
  });
});

/**
 * Regression: Node's fetch leaves a connection it never uses after a 2025-11-25 client closes
 * its GET stream, and node's `server.close()` waited for it: about 3 s here.
 */
describe('Express 5, closing after clients left', () => {
  it('mcp.close() then server.close() finishes at once after a 2025-11-25 client with a session and a GET stream closed', async () => {
    const served = await serve('root');
    await leaveAfterASession(served.server, served.url, { name: 'greet', arguments: { name: 'Ada' } });
    expect(await connectionsLeftAfter(served.server, () => stop(served))).toBe(0);
  });

  it('a connection that never sent a request does not hold server.close()', async () => {
    const served = await serve('/mcp');
    expect((await post(served.url, INITIALIZE)).status).toBe(200);
    const unused = await openUnusedConnection(served.server);
    try {
      expect(await connectionsLeftAfter(served.server, () => stop(served))).toBe(0);
    } finally {
      unused.destroy();
    }
  });
});
