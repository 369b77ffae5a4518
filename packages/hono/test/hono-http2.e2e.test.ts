import 'reflect-metadata';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { createSecureServer, createServer, type ClientHttp2Session, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createApp } from '@toolwright/server';
import { toolwrightMiddleware, type ToolwrightHonoMiddleware } from '@toolwright/hono';
import { GreeterTools } from '../../express/test/fixtures/greeterTools';
import { HeaderNamesTools, TLS, h2connect, h2request, watchConnectionHeaders, type Scheme } from '../../server/test/fixtures/h2Client';
import { h2BodyRefusalRun, h2EndpointRuns } from '../../server/test/fixtures/h2EndpointRuns';

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

  const endpoint = () => ({ session, port });
  h2EndpointRuns(endpoint);
  h2BodyRefusalRun(endpoint);

  it("the app's own routes answer beside the endpoint", async () => {
    const hello = await h2request(session, { ':path': '/hello', ':method': 'GET' });
    expect([hello.status, JSON.parse(hello.body)]).toEqual([200, { from: 'hono' }]);
  });

  // The fetch handler drops the SDK's `Connection: keep-alive` from its SSE answers, which @hono/node-server would write on the HTTP/2 response.
  it('no response was given a Connection header (HTTP/2 forbids it: node drops it, and warns)', () => {
    expect(connectionHeaders).toEqual([]);
  });
});
