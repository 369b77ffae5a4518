import 'reflect-metadata';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { constants, createSecureServer, createServer, type ClientHttp2Session, type Http2SecureServer, type Http2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createApp } from '@toolwright/server';
import { createHttpHandler, type HttpHandler } from '@toolwright/server/http';
import { koaMcp } from '../snippets/frameworks/koa';
import { GreeterTools } from '../snippets/frameworks/greeter.tools';
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
} from '../../packages/express/test/fixtures/h2Client';
import { initializeBody } from '../../packages/server/test/fixtures/httpHelpers';

/**
 * The Koa page's middleware (`koaMcp`, the node handler on `ctx.req` and `ctx.res`) in a Koa app
 * served by node:http2 (`http2.createServer(web.callback())`, cleartext, and
 * `createSecureServer` with HTTP/1 allowed) on 127.0.0.1, driven by raw JSON-RPC over a real
 * `http2.connect()` session in both eras.
 */
describe.each([
  ['h2c: http2.createServer(web.callback())', 'http' as Scheme],
  ['TLS with HTTP/1 allowed: http2.createSecureServer({ allowHTTP1: true, key, cert }, web.callback())', 'https' as Scheme],
])('Koa over HTTP/2, %s', (_name, scheme) => {
  let server: Http2Server | Http2SecureServer;
  let mcp: HttpHandler;
  let session: ClientHttp2Session;
  let port: number;
  const connectionHeaders: string[] = [];

  beforeAll(async () => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools, HeaderNamesTools] });
    mcp = createHttpHandler(app, { health: false, requestLogLevel: 'silent', maxBodyBytes: 4096 });
    const web = new Koa();
    web.use(koaMcp(mcp));
    web.use(bodyParser());
    web.use((ctx) => {
      if (ctx.path === '/status') ctx.body = { up: true };
    });
    const callback = web.callback();
    const listener = (req: Http2ServerRequest, res: Http2ServerResponse) => {
      watchConnectionHeaders(res, connectionHeaders);
      void callback(req as never, res as never);
    };
    server = scheme === 'https' ? createSecureServer({ allowHTTP1: true, key: TLS.key, cert: TLS.cert }, listener) : createServer(listener);
    await app.start();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    session = h2connect(scheme, port);
  });
  afterAll(async () => {
    session.destroy();
    await mcp.close({ drainTimeoutMs: 0 });
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
    }
    expect(toolTextOf(await h2callTool(session, '2026-07-28', 'greet', { name: 'again' }), 2)).toBe('Hello, again!');
  });

  it('the body refusals are JSON-RPC errors over HTTP/2 too (bad JSON, too large)', async () => {
    const broken = await h2request(session, { ':method': 'POST', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, '{"jsonrpc":');
    expect(broken.status).toBe(400);
    expect((JSON.parse(broken.body) as { error: { code: number } }).error.code).toBe(-32700);
    const large = await h2post(session, { ...initializeBody(6), pad: 'x'.repeat(5000) });
    expect(large.status).toBe(413);
    expect(toolTextOf(await h2callTool(session, '2026-07-28', 'greet', { name: 'after' }), 2)).toBe('Hello, after!');
  });

  it("Koa's own routes and 404 answer beside the endpoint", async () => {
    const status = await h2request(session, { ':path': '/status', ':method': 'GET' });
    expect([status.status, JSON.parse(status.body)]).toEqual([200, { up: true }]);
    const other = await h2request(session, { ':path': '/nope', ':method': 'GET' });
    // Koa's own 404: its body is the status message, which HTTP/2 has none of ('404' then).
    expect([other.status, other.body]).toEqual([404, '404']);
  });

  it('no response was given a Connection header (HTTP/2 forbids it: node drops it, and warns)', () => {
    expect(connectionHeaders).toEqual([]);
  });
});
