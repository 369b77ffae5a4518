import 'reflect-metadata';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { createSecureServer, createServer, type ClientHttp2Session, type Http2SecureServer, type Http2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createApp } from '@toolwright/server';
import { createHttpHandler, type HttpHandler } from '@toolwright/server/http';
import { koaMcp } from '../snippets/frameworks/koa';
import { GreeterTools } from '../snippets/frameworks/greeter.tools';
import { HeaderNamesTools, TLS, h2connect, h2request, watchConnectionHeaders, type Scheme } from '../../packages/server/test/fixtures/h2Client';
import { h2BodyRefusalRun, h2EndpointRuns } from '../../packages/server/test/fixtures/h2EndpointRuns';

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

  const endpoint = () => ({ session, port });
  h2EndpointRuns(endpoint);
  h2BodyRefusalRun(endpoint);

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
