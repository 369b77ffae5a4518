import { createServer, type Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type App } from '@toolwright/server';
import { createHttpHandler, type HttpListener } from '@toolwright/server/http';
import { createFetchHandler } from '@toolwright/server/fetch';
import express from 'express';
import { Hono } from 'hono';
import { getRequestListener } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { HttpTools } from './fixtures/http.tools';
import { connectClient, initializeBody, jsonOf, messagesOf, post, textOf } from './fixtures/httpHelpers';

const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };

describe('Streamable HTTP: serving modes through the SDK client', () => {
  let app: App;
  const listeners: HttpListener[] = [];
  const listen = async (options: Record<string, unknown> = {}) => {
    const listener = await app.listen({ transport: 'http', port: 0, ...quiet, ...options });
    listeners.push(listener);
    return listener;
  };

  beforeAll(async () => {
    app = await createApp({ name: 'http-test', version: '1.0.0', tools: [HttpTools] });
  });
  afterAll(() => Promise.all(listeners.map((l) => l.close())));

  it('listens on 127.0.0.1 with a free port and reports its URL', async () => {
    const listener = await listen();
    expect(listener.host).toBe('127.0.0.1');
    expect(listener.port).toBeGreaterThan(0);
    expect(listener.url).toBe(`http://127.0.0.1:${listener.port}/mcp`);
  });

  it('stateful: one session per client, with its id, request headers and no auth in the call context', async () => {
    const { url } = await listen();
    const a = await connectClient(url, { headers: { 'x-custom': 'from-a' } });
    const b = await connectClient(url);
    expect(a.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.transport.sessionId).not.toBe(a.transport.sessionId);

    const { tools } = await a.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['whoami', 'slow']);
    const seenByA = jsonOf(await a.client.callTool({ name: 'whoami', arguments: { value: 'a' } }));
    expect(seenByA).toMatchObject({ value: 'a', sessionId: a.transport.sessionId, custom: 'from-a', clientId: null });
    const seenByB = jsonOf(await b.client.callTool({ name: 'whoami', arguments: { value: 'b' } }));
    expect(seenByB).toMatchObject({ value: 'b', sessionId: b.transport.sessionId, custom: null });
    await Promise.all([a.client.close(), b.client.close()]);
  });

  it('stateful: DELETE ends the session; the id is unknown afterwards (404)', async () => {
    const listener = await listen();
    const { client, transport } = await connectClient(listener.url);
    const id = transport.sessionId!;
    expect(listener.sessionCount).toBe(1);
    await transport.terminateSession();
    expect(listener.sessionCount).toBe(0);
    const after = await post(listener.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id });
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32001, message: expect.stringContaining('Session not found') } });
    await client.close();
  });

  it('stateful: the GET stream carries server notifications to the session', async () => {
    const listener = await listen();
    const { client, transport, getStream } = await connectClient(listener.url);
    // The SDK client opens its GET stream after initialize; once it is open, a raw GET is refused as a second stream.
    expect(await getStream).toBe(true);
    const get = await fetch(listener.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': transport.sessionId! } });
    expect(get.status).toBe(409);
    await get.body?.cancel();
    await client.close();
  });

  it('stateless: every request gets a fresh server, no session id; GET and DELETE are 405', async () => {
    const { url } = await listen({ stateless: true });
    const { client, transport } = await connectClient(url);
    expect(transport.sessionId).toBeUndefined();
    const results = await Promise.all([1, 2, 3].map((n) => client.callTool({ name: 'slow', arguments: { ms: n } })));
    expect(results.map(textOf)).toEqual(['slept 1', 'slept 2', 'slept 3']);
    expect(jsonOf(await client.callTool({ name: 'whoami', arguments: {} })).sessionId).toBeNull();
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(url, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
    await client.close();
  });

  it('JSON-response mode answers POSTs with one application/json body', async () => {
    const { url } = await listen({ jsonResponse: true });
    const init = await post(url, initializeBody());
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toContain('application/json');
    const [message] = await messagesOf(init);
    expect(message).toMatchObject({ id: 1, result: { serverInfo: { name: 'http-test' }, protocolVersion: '2025-11-25' } });
    const { client } = await connectClient(url);
    expect(textOf(await client.callTool({ name: 'slow', arguments: { ms: 1 } }))).toBe('slept 1');
    await client.close();
  });

  it('stateless JSON-response mode works with the SDK client', async () => {
    const { url } = await listen({ stateless: true, jsonResponse: true });
    const { client } = await connectClient(url);
    expect(textOf(await client.callTool({ name: 'slow', arguments: { ms: 2 } }))).toBe('slept 2');
    await client.close();
  });

  it('serves liveness and readiness, and 404 elsewhere', async () => {
    const { url, port } = await listen();
    expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    const missing = await fetch(`http://127.0.0.1:${port}/nope`);
    expect(missing.status).toBe(404);
    expect(url.endsWith('/mcp')).toBe(true);
  });

  it('answers HEAD on the health checks as GET, without a body, on the listener and the fetch handler', async () => {
    const { port } = await listen();
    const fetchHandler = createFetchHandler(app, { stateless: true, logError: () => {} });
    for (const path of ['/healthz', '/readyz']) {
      const overHttp = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'HEAD' });
      const inProcess = await fetchHandler(new Request(`http://127.0.0.1${path}`, { method: 'HEAD' }));
      for (const answer of [overHttp, inProcess]) {
        expect([path, answer.status, answer.headers.get('content-type'), await answer.text()]).toEqual([path, 200, 'application/json', '']);
      }
    }
    expect((await fetch(`http://127.0.0.1:${port}/nope`, { method: 'HEAD' })).status).toBe(404);
    await fetchHandler.close();
  });

  it('serves a custom path', async () => {
    const { url } = await listen({ path: '/api/mcp' });
    expect(url).toMatch(/\/api\/mcp$/);
    const { client } = await connectClient(url);
    expect(textOf(await client.callTool({ name: 'slow', arguments: { ms: 0 } }))).toBe('slept 0');
    await client.close();
  });

  it('serves a path with a space or non-ASCII characters at the URL that spells it, on the listener and the fetch handler', async () => {
    const { url } = await listen({ path: '/outils métier/mcp' });
    expect(url).toMatch(/\/outils%20m%C3%A9tier\/mcp$/);
    const { client } = await connectClient(url);
    expect(textOf(await client.callTool({ name: 'slow', arguments: { ms: 0 } }))).toBe('slept 0');
    await client.close();
    const fetchHandler = createFetchHandler(app, { path: 'outils métier/mcp', stateless: true, logError: () => {} });
    expect(fetchHandler.path).toBe('/outils%20m%C3%A9tier/mcp');
    const answer = await fetchHandler(
      new Request('http://127.0.0.1/outils%20m%C3%A9tier/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(initializeBody()),
      }),
    );
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('"protocolVersion"');
    await fetchHandler.close();
  });

  it.each(['/mcp?x=1', '/mcp#top', ''])('refuses the path %j at start: a query or fragment is never part of one', async (path) => {
    await expect(listen({ path })).rejects.toThrow(/is not a URL path\. Give one like '\/mcp', without a query \(\?\) or fragment \(#\)/);
    expect(() => createFetchHandler(app, { path })).toThrow(/is not a URL path/);
  });
});

describe('createHttpHandler inside existing servers', () => {
  let app: App;
  const servers: NodeServer[] = [];
  const start = async (server: NodeServer) => {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    app = await createApp({ name: 'mounted', version: '1.0.0', tools: [HttpTools] });
  });
  afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

  const exercise = async (url: string) => {
    const { client } = await connectClient(url);
    expect(textOf(await client.callTool({ name: 'slow', arguments: { ms: 1 } }))).toBe('slept 1');
    await client.close();
  };

  it('works as a node:http request listener', async () => {
    const handler = createHttpHandler(app, { requestLogLevel: 'silent' });
    const base = await start(createServer((req, res) => void handler(req, res)));
    await exercise(`${base}/mcp`);
    await handler.close();
  });

  it('works as express middleware, next() for other routes, with or without express.json()', async () => {
    const handler = createHttpHandler(app, { requestLogLevel: 'silent' });
    const web = express();
    web.get('/hello', (_req, res) => void res.send('hi'));
    const parsed = createHttpHandler(app, { requestLogLevel: 'silent', path: '/parsed/mcp' });
    web.all('/parsed/mcp', express.json(), parsed);
    web.use(handler);
    const base = await start(createServer(web));
    await exercise(`${base}/mcp`);
    await exercise(`${base}/parsed/mcp`);
    expect(await (await fetch(`${base}/hello`)).text()).toBe('hi');
    await Promise.all([handler.close(), parsed.close()]);
  });

  it('works under hono on @hono/node-server', async () => {
    const handler = createHttpHandler(app, { requestLogLevel: 'silent' });
    const hono = new Hono<{ Bindings: { incoming: import('node:http').IncomingMessage; outgoing: import('node:http').ServerResponse } }>();
    hono.get('/hello', (c) => c.text('hi'));
    hono.all('/mcp', async (c) => {
      await handler(c.env.incoming, c.env.outgoing);
      return RESPONSE_ALREADY_SENT;
    });
    const base = await start(createServer(getRequestListener(hono.fetch)));
    await exercise(`${base}/mcp`);
    expect(await (await fetch(`${base}/hello`)).text()).toBe('hi');
    await handler.close();
  });
});
