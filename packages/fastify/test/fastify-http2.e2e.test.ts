import 'reflect-metadata';
import type { IncomingHttpHeaders } from 'node:http';
import type { ClientHttp2Session, Http2ServerResponse } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { createApp } from '@toolwright/server';
import { toolwrightPlugin } from '@toolwright/fastify';
import { GreeterTools } from '../../express/test/fixtures/greeterTools';
import {
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
} from '../../server/test/fixtures/h2Client';
import { h2EndpointRuns } from '../../server/test/fixtures/h2EndpointRuns';
import { initializeBody } from '../../server/test/fixtures/httpHelpers';

/** An HTTP/1.1 POST to the TLS server's endpoint, trusting the test certificate. */
function https1Post(port: number, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const options = { method: 'POST', ca: TLS.cert, checkServerIdentity: () => undefined, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } };
    const req = httpsRequest(`https://localhost:${port}/mcp`, options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The Fastify app on 127.0.0.1: its own route and the endpoint; each HTTP/2 response's Connection headers go to `connectionHeaders`. */
async function serve(scheme: Scheme, connectionHeaders: string[]): Promise<{ fastify: FastifyInstance; port: number }> {
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools, HeaderNamesTools] });
  const options = scheme === 'https' ? { http2: true as const, https: { allowHTTP1: true, key: TLS.key, cert: TLS.cert } } : { http2: true as const };
  // One type for the cleartext and the TLS instance: the test reads only what both have.
  const fastify = Fastify(options) as unknown as FastifyInstance;
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.raw.httpVersionMajor === 2) watchConnectionHeaders(reply.raw as unknown as Http2ServerResponse, connectionHeaders);
    done();
  });
  fastify.get('/hello', async () => ({ from: 'fastify' }));
  await fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent', maxBodyBytes: 2048 });
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  return { fastify, port: (fastify.server.address() as AddressInfo).port };
}

/**
 * A real Fastify 5 app serving HTTP/2 (`fastify({ http2: true })`, cleartext, and with TLS and
 * HTTP/1 allowed) on 127.0.0.1, the endpoint registered with the plugin, driven by raw JSON-RPC
 * over a real `http2.connect()` session in both eras. The endpoint's refusals of a body (bad
 * JSON, too large, compressed) carried HTTP/1's `Connection: close`, Fastify's on its parser's
 * errors and the plugin's own; HTTP/2 forbids the header: node's compatibility API drops it and
 * prints a process warning. Over HTTP/1 on the same TLS server the refusals keep it.
 */
describe.each([
  ['h2c: fastify({ http2: true })', 'http' as Scheme],
  ['TLS with HTTP/1 allowed: fastify({ http2: true, https: { allowHTTP1: true, key, cert } })', 'https' as Scheme],
])('Fastify 5 over HTTP/2, %s', (_name, scheme) => {
  let fastify: FastifyInstance;
  let session: ClientHttp2Session;
  let port: number;
  const connectionHeaders: string[] = [];

  beforeAll(async () => {
    ({ fastify, port } = await serve(scheme, connectionHeaders));
    session = h2connect(scheme, port);
  });
  afterAll(async () => {
    session.destroy();
    await fastify.close();
  });

  h2EndpointRuns(() => ({ session, port }));

  it("Fastify's body refusals on the endpoint are JSON-RPC errors over HTTP/2 too (bad JSON, too large, compressed)", async () => {
    const broken = await h2request(session, { ':method': 'POST', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, '{"jsonrpc": "2.0", "id": 1, "method": "secret');
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the request body is not valid JSON.' } });
    const large = await h2post(session, { ...initializeBody(6), pad: 'x'.repeat(4000) });
    expect(large.status).toBe(413);
    expect((JSON.parse(large.body) as { error: { message: string } }).error.message).toMatch(/exceeds 2048 bytes/);
    const compressed = await h2post(session, initializeBody(7), { 'content-encoding': 'gzip' });
    expect(compressed.status).toBe(415);
    expect((JSON.parse(compressed.body) as { error: { code: number } }).error.code).toBe(-32000);
    expect(toolTextOf(await h2callTool(session, '2026-07-28', 'greet', { name: 'after' }), 2)).toBe('Hello, after!');
  });

  it("the app's own routes answer beside the endpoint", async () => {
    const hello = await h2request(session, { ':path': '/hello', ':method': 'GET' });
    expect([hello.status, JSON.parse(hello.body)]).toEqual([200, { from: 'fastify' }]);
  });

  it('no response was given a Connection header (HTTP/2 forbids it: node drops it, and warns)', () => {
    expect(connectionHeaders).toEqual([]);
  });
});

describe('Fastify 5 over HTTP/1 on the TLS server that allows it (allowHTTP1)', () => {
  let fastify: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    ({ fastify, port } = await serve('https', []));
  });
  afterAll(() => fastify.close());

  it('the endpoint serves, and a refused body still closes the connection', async () => {
    const initialize = await https1Post(port, JSON.stringify(initializeBody(8)));
    expect(initialize.status).toBe(200);
    expect(initialize.headers['mcp-session-id']).toEqual(expect.any(String));
    const large = await https1Post(port, JSON.stringify({ ...initializeBody(9), pad: 'x'.repeat(4000) }));
    expect([large.status, large.headers.connection]).toEqual([413, 'close']);
    const compressed = await https1Post(port, JSON.stringify(initializeBody(10)), { 'content-encoding': 'gzip' });
    expect([compressed.status, compressed.headers.connection]).toEqual([415, 'close']);
  });
});

describe('Fastify 5 over HTTP/2: fastify.close()', () => {
  it("ends the endpoint's open SSE streams of both eras before the server closes", async () => {
    const { fastify, port } = await serve('http', []);
    const session = h2connect('http', port);
    try {
      const headers = await h2session(session);
      const get = await h2open(session, { ':method': 'GET', accept: 'text/event-stream', ...headers });
      const { message, headers: listenHeaders } = listenRequest();
      const listen = await h2open(session, { ':method': 'POST', 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...listenHeaders }, JSON.stringify(message));
      const ended = [get, listen].map(({ stream }) => new Promise<void>((resolve) => stream.on('end', resolve).resume()));
      const closed = fastify.close();
      await Promise.all(ended);
      // Fastify then closes each HTTP/2 session gracefully, which waits for the client's: the client ends its own.
      session.close();
      await closed;
    } finally {
      session.destroy();
    }
  });
});
