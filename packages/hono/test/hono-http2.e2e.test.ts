import 'reflect-metadata';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { constants, createSecureServer, createServer, type ClientHttp2Session, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createApp } from '@toolwright/server';
import { toolwrightMiddleware, type ToolwrightHonoMiddleware } from '@toolwright/hono';
import { GreeterTools } from '../../express/test/fixtures/greeterTools';
import {
  H2_ERAS,
  HeaderNamesTools,
  TLS,
  h2callTool,
  h2connect,
  h2open,
  h2post,
  h2request,
  h2session,
  listenRequest,
  toolTextOf,
  watchConnectionHeaders,
  type Scheme,
} from '../../express/test/fixtures/h2Client';
import { initializeBody } from '../../server/test/fixtures/httpHelpers';

type Listener = (req: Http2ServerRequest, res: Http2ServerResponse) => void;

/**
 * A real Hono 4 app served over HTTP/2 by @hono/node-server (`serve({ fetch, createServer })`
 * with node:http2's `createServer`, and `createSecureServer` with HTTP/1 allowed) on 127.0.0.1,
 * the endpoint mounted with `toolwrightMiddleware`, driven by raw JSON-RPC over a real
 * `http2.connect()` session in both eras.
 */
describe.each([
  ['h2c: serve({ createServer: http2.createServer })', 'http' as Scheme],
  ['TLS with HTTP/1 allowed: serve({ createServer: http2.createSecureServer, serverOptions: { allowHTTP1: true, key, cert } })', 'https' as Scheme],
])('Hono 4 on @hono/node-server over HTTP/2, %s', (_name, scheme) => {
  let server: ServerType;
  let mcp: ToolwrightHonoMiddleware;
  let session: ClientHttp2Session;
  let port: number;
  const connectionHeaders: string[] = [];

  beforeAll(async () => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools, HeaderNamesTools] });
    mcp = toolwrightMiddleware(app, { maxBodyBytes: 4096 });
    const web = new Hono();
    web.use(mcp);
    web.get('/hello', (c) => c.json({ from: 'hono' }));
    // Each response is watched for a Connection header before @hono/node-server writes it.
    const watched =
      (listener: Listener): Listener =>
      (req, res) => {
        watchConnectionHeaders(res, connectionHeaders);
        listener(req, res);
      };
    const options =
      scheme === 'https'
        ? { createServer: (opts: object, listener: Listener) => createSecureServer(opts, watched(listener)), serverOptions: { allowHTTP1: true, key: TLS.key, cert: TLS.cert } }
        : { createServer: (opts: object, listener: Listener) => createServer(opts, watched(listener)) };
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: web.fetch, hostname: '127.0.0.1', port: 0, ...(options as object) }, () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
    session = h2connect(scheme, port);
  });
  afterAll(async () => {
    session.destroy();
    await mcp.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each(H2_ERAS)('%s: tools/call is answered', async (era) => {
    const call = await h2callTool(session, era, 'greet', { name: 'Ada' });
    expect(call.status).toBe(200);
    expect(toolTextOf(call, 2)).toBe('Hello, Ada!');
  });

  it.each(H2_ERAS)('%s: a tool sees the header fields, without the pseudo-headers', async (era) => {
    const call = await h2callTool(session, era, 'header_names', {}, { 'x-custom': 'h2' });
    const { names } = JSON.parse(toolTextOf(call, 2)) as { names: string[] };
    expect(names).toEqual(expect.arrayContaining(['content-type', 'x-custom']));
    expect(names.filter((name) => name.startsWith(':'))).toEqual([]);
  });

  it("2025-11-25: the session's GET stream opens as an SSE stream, and DELETE ends the session", async () => {
    const headers = await h2session(session);
    const opened = await h2open(session, { ':method': 'GET', accept: 'text/event-stream', ...headers });
    expect(opened.headers[':status']).toBe(200);
    expect(opened.headers['content-type']).toBe('text/event-stream');
    opened.stream.close(constants.NGHTTP2_CANCEL);
    expect((await h2request(session, { ':method': 'DELETE', ...headers })).status).toBe(200);
  });

  it('2026-07-28: a subscriptions/listen stream opens as an SSE stream', async () => {
    const { message, headers } = listenRequest();
    const opened = await h2open(session, { ':method': 'POST', 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, JSON.stringify(message));
    expect(opened.headers[':status']).toBe(200);
    expect(opened.headers['content-type']).toBe('text/event-stream');
    opened.stream.close(constants.NGHTTP2_CANCEL);
  });

  it('403 for an :authority naming a foreign host (DNS rebinding), in both eras; the endpoint keeps serving', async () => {
    for (const era of H2_ERAS) {
      const rebound = await h2post(session, era === H2_ERAS[0] ? initializeBody(5) : { jsonrpc: '2.0', id: 5, method: 'tools/list' }, { ':authority': `attacker.example:${port}` });
      expect(rebound.status).toBe(403);
      expect(JSON.parse(rebound.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('names a host this server does not answer to') } });
      expect(rebound.body).not.toContain('attacker.example');
    }
    expect(toolTextOf(await h2callTool(session, '2026-07-28', 'greet', { name: 'again' }), 2)).toBe('Hello, again!');
  });

  it('the body refusals are JSON-RPC errors over HTTP/2 too (bad JSON, too large)', async () => {
    const broken = await h2request(session, { ':method': 'POST', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, '{"jsonrpc": "2.0", "id": 1, "method": "secret');
    expect(broken.status).toBe(400);
    expect((JSON.parse(broken.body) as { error: { code: number } }).error.code).toBe(-32700);
    expect(broken.body).not.toContain('secret');
    const large = await h2post(session, { ...initializeBody(6), pad: 'x'.repeat(5000) });
    expect(large.status).toBe(413);
    expect(toolTextOf(await h2callTool(session, '2026-07-28', 'greet', { name: 'after' }), 2)).toBe('Hello, after!');
  });

  it("the app's own routes answer beside the endpoint", async () => {
    const hello = await h2request(session, { ':path': '/hello', ':method': 'GET' });
    expect([hello.status, JSON.parse(hello.body)]).toEqual([200, { from: 'hono' }]);
  });

  // The fetch handler drops the SDK's `Connection: keep-alive` from its SSE answers, which @hono/node-server would write on the HTTP/2 response.
  it('no response was given a Connection header (HTTP/2 forbids it: node drops it, and warns)', () => {
    expect(connectionHeaders).toEqual([]);
  });
});
