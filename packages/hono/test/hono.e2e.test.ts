import 'reflect-metadata';
import { serve, type ServerType } from '@hono/node-server';
import { Hono, type MiddlewareHandler } from 'hono';
import type { AddressInfo } from 'node:net';
import { OnStart } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { toolwrightMiddleware, type ToolwrightHonoMiddleware, type ToolwrightHonoOptions } from '@toolwright/hono';
import { GreeterTools } from '../../express/test/fixtures/greeterTools';
import { ERAS, INITIALIZE, connectEra, post, rawPost } from './fixtures/v2Clients';

/**
 * A real Hono 4 app served by @hono/node-server on 127.0.0.1, with its own routes and its own
 * middleware in front of the endpoint, driven by the MCP SDK v2 client in both eras.
 */
type Mount = 'use' | 'route';

async function start(mount: Mount, options: ToolwrightHonoOptions = {}, before?: (web: Hono) => void): Promise<{ base: string; url: string; mcp: ToolwrightHonoMiddleware; server: ServerType }> {
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
  const web = new Hono();
  web.get('/hello', (c) => c.json({ from: 'hono' }));
  before?.(web);
  const mcp = toolwrightMiddleware(app, { logError: () => {}, ...options });
  if (mount === 'use') web.use(mcp);
  else web.all('/mcp', mcp);
  await mcp.ready;
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: web.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, url: `${base}/mcp`, mcp, server };
}

async function stop(served: { mcp: ToolwrightHonoMiddleware; server: ServerType }): Promise<void> {
  await served.mcp.close();
  // Sockets a test left open (a client that was not closed) must not hold the suite.
  (served.server as import('node:http').Server).closeAllConnections();
  await new Promise<void>((resolve) => served.server.close(() => resolve()));
}

describe.each(['use', 'route'] as const)('Hono 4 on @hono/node-server, mounted with web.%s', (mount) => {
  let served: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    served = await start(mount);
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
      if (era === '2025-11-25') {
        expect(client.sessionId).toEqual(expect.any(String));
        expect(served.mcp.sessionCount).toBeGreaterThan(0);
      } else expect(client.sessionId).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it("the app's own routes answer beside the endpoint; unknown paths and Toolwright's health routes get Hono's 404", async () => {
    expect(await (await fetch(`${served.base}/hello`)).json()).toEqual({ from: 'hono' });
    const missing = await fetch(`${served.base}/nowhere`);
    expect([missing.status, await missing.text()]).toEqual([404, '404 Not Found']);
    expect([(await fetch(`${served.base}/healthz`)).status, (await fetch(`${served.base}/.well-known/oauth-protected-resource`)).status]).toEqual([404, 404]);
  });

  it('the endpoint keeps the fetch handler defences: foreign Host and Origin 403, bad JSON -32700, too large 413, wrong method 405', async () => {
    const foreignHost = await rawPost(served.url, INITIALIZE, { host: 'evil.example' });
    expect(foreignHost.status).toBe(403);
    expect(JSON.parse(foreignHost.body)).toMatchObject({ error: { message: expect.stringMatching(/Host header/) } });
    const foreignOrigin = await post(served.url, INITIALIZE, { origin: 'https://evil.example' });
    expect(foreignOrigin.status).toBe(403);
    const broken = await post(served.url, '{"jsonrpc": "2.0", "id": 1, "method": "secret-body-text');
    expect(broken.status).toBe(400);
    const brokenText = await broken.text();
    expect(JSON.parse(brokenText)).toMatchObject({ error: { code: -32700 }, id: null });
    expect(brokenText).not.toContain('secret-body-text');
    const large = await post(served.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5 * 1024 * 1024) } }));
    expect(large.status).toBe(413);
    const put = await fetch(served.url, { method: 'PUT', body: '{}' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, POST, DELETE']);
  });
});

describe('Hono 4: middleware in front of the endpoint', () => {
  /** Refuses any request without the team's key: a Hono middleware, not Toolwright's auth. */
  const apiKey: MiddlewareHandler = async (c, next) => {
    if (c.req.header('x-api-key') !== 'let-me-in') return c.json({ error: 'no key' }, 401);
    await next();
  };
  /** Reads the body first, as validators and loggers do: the endpoint must still get it. */
  const bodyReader: MiddlewareHandler = async (c, next) => {
    if (c.req.method === 'POST') c.set('method' as never, ((await c.req.json()) as { method?: string }).method as never);
    await next();
  };
  let served: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    served = await start('route', {}, (web) => {
      web.use('/mcp', apiKey);
      web.use('/mcp', bodyReader);
    });
  });
  afterAll(() => stop(served));

  it.each(ERAS)('%s: a Hono middleware that rejects answers before the endpoint; with the key, a client gets through even after a middleware read the body', async (era) => {
    const sessions = served.mcp.sessionCount;
    const refused = await post(served.url, INITIALIZE);
    expect([refused.status, await refused.json()]).toEqual([401, { error: 'no key' }]);
    await expect(connectEra(era, served.url)).rejects.toThrow();
    expect(served.mcp.sessionCount).toBe(sessions);
    const client = await connectEra(era, served.url, { 'x-api-key': 'let-me-in' });
    try {
      expect((await client.callTool('greet', { name: 'Key' })).content[0].text).toBe('Hello, Key!');
    } finally {
      await client.close();
    }
  });
});

describe('Hono 4: a middleware that read the body from c.req.raw', () => {
  it('the endpoint answers a JSON-RPC 500 and logs what to change, and keeps serving other requests', async () => {
    const logged: string[] = [];
    /** Reads the web request itself: Hono keeps no copy of that body. */
    const rawReader: MiddlewareHandler = async (c, next) => {
      if (c.req.method === 'POST' && c.req.header('x-read-raw')) await c.req.raw.text();
      await next();
    };
    const served = await start('use', { logError: (message) => logged.push(message) }, (web) => {
      web.use('/mcp', rawReader);
      web.onError((error, c) => c.json({ escaped: error.message }, 500));
    });
    try {
      const gone = await post(served.url, INITIALIZE, { 'x-read-raw': '1' });
      expect(gone.status).toBe(500);
      expect(await gone.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32603, message: expect.stringMatching(/^Internal error: the request body was read before the MCP endpoint/) } });
      expect(logged).toEqual([expect.stringMatching(/POST \/mcp was read from c\.req\.raw.*c\.req\.raw\.clone\(\)/)]);
      const client = await connectEra('2026-07-28', served.url);
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      await client.close();
    } finally {
      await stop(served);
    }
  });
});

describe('Hono 4: sessions, auth and lifecycle', () => {
  it('sessions of one client address are limited (maxSessionsPerPrincipal: its oldest closes), and close() ends them all', async () => {
    const served = await start('use', { sessions: { maxSessionsPerPrincipal: 2 } });
    const clients = [];
    for (let i = 0; i < 3; i++) clients.push(await connectEra('2025-11-25', served.url));
    // The third session of one address closed that address's oldest: two stay, the first is gone.
    expect(served.mcp.sessionCount).toBe(2);
    await expect(clients[0].callTool('greet', { name: 'first' })).rejects.toThrow(/Session not found/);
    expect((await clients[2].callTool('greet', { name: 'third' })).content[0].text).toBe('Hello, third!');
    await stop(served);
    expect(served.mcp.sessionCount).toBe(0);
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  });

  it('clientAddress tells callers apart: each address has its own share of sessions', async () => {
    const served = await start('use', { sessions: { maxSessionsPerPrincipal: 1 }, clientAddress: (c) => c.req.header('x-test-client') });
    try {
      const a = await connectEra('2025-11-25', served.url, { 'x-test-client': '10.0.0.1' });
      const b = await connectEra('2025-11-25', served.url, { 'x-test-client': '10.0.0.2' });
      expect(served.mcp.sessionCount).toBe(2);
      expect((await a.callTool('greet', { name: 'a' })).content[0].text).toBe('Hello, a!');
      const a2 = await connectEra('2025-11-25', served.url, { 'x-test-client': '10.0.0.1' });
      await expect(a.callTool('greet', { name: 'a' })).rejects.toThrow(/Session not found/);
      expect((await b.callTool('greet', { name: 'b' })).content[0].text).toBe('Hello, b!');
      await Promise.all([a.close(), a2.close(), b.close()]);
    } finally {
      await stop(served);
    }
  });

  it('bearer auth: 401 with the RFC 9728 challenge, metadata served at the root, a valid token gets in (both eras)', async () => {
    const auth = {
      resource: 'http://127.0.0.1/mcp',
      authorizationServers: ['https://issuer.example.test'],
      verifyToken: async (token: string) => (token === 'good' ? { token, clientId: 'c1', scopes: [] } : undefined),
    };
    const served = await start('use', { auth });
    try {
      const refused = await post(served.url, INITIALIZE);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer .*resource_metadata="http:\/\/127\.0\.0\.1\/\.well-known\/oauth-protected-resource\/mcp"/);
      const metadata = await fetch(`${served.base}/.well-known/oauth-protected-resource/mcp`);
      expect(await metadata.json()).toMatchObject({ resource: 'http://127.0.0.1/mcp', authorization_servers: ['https://issuer.example.test'] });
      for (const era of ERAS) {
        const client = await connectEra(era, served.url, { authorization: 'Bearer good' });
        expect((await client.callTool('greet', { name: era })).content[0].text).toBe(`Hello, ${era}!`);
        await client.close();
      }
    } finally {
      await stop(served);
    }
  });

  it('a failed start hook: ready rejects, the endpoint answers 503, the other routes still work', async () => {
    class Broken {
      @OnStart()
      boot() {
        throw new Error('no database');
      }
    }
    const app = await createApp({ name: 'broken', version: '1.0.0', tools: [GreeterTools], services: [Broken] });
    const web = new Hono();
    web.get('/hello', (c) => c.text('hi'));
    const mcp = toolwrightMiddleware(app);
    web.use(mcp);
    await expect(mcp.ready).rejects.toThrow(/no database/);
    const refused = await web.fetch(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: INITIALIZE }),
    );
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: -32000, message: expect.stringMatching(/did not start/) } });
    expect(await (await web.fetch(new Request('http://127.0.0.1/hello'))).text()).toBe('hi');
    await mcp.close();
  });
});
