import { createServer as createHttp1Server, request as http1Request } from 'node:http';
import { constants, createSecureServer, createServer, type ClientHttp2Session, type Http2SecureServer, type Http2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { createApp, type App } from '@toolwright/server';
import { createHttpHandler, InMemoryEventStore, type EventStoreFactory, type HttpHandler } from '@toolwright/server/http';
import { LEGACY, MODERN } from './fixtures/eras';
import { HeaderNamesTools, TLS, h2connect, h2open, h2post, h2request, h2session, messagesOf, toolTextOf, watchConnectionHeaders, type H2Answer } from './fixtures/h2Client';
import { HttpTools, nextSlowCall } from './fixtures/http.tools';
import { ACCEPT_BOTH, initializeBody } from './fixtures/httpHelpers';

/**
 * The node handler behind node:http2, through its compatibility API (`(req, res)`): cleartext
 * (h2c) and TLS with HTTP/1 allowed. An HTTP/2 request names its host in `:authority` and
 * carries no Host header; the handler read only Host, so the DNS-rebinding rule refused every
 * HTTP/2 request on a loopback address with 403. Past that, the 2026-07-28 era copied the
 * pseudo-headers into a web `Headers`, which refuses their names (500), and HTTP/1's Connection
 * header went on refusals and SSE streams, which HTTP/2 forbids (node drops it and warns). The
 * SDK's clients speak HTTP/1 only, so the requests here are raw JSON-RPC over a real
 * `http2.connect()` session, in both protocol eras.
 */

/** The user information (`name@`) a host may not carry. */
const WITH_USER_INFO = 'localhost:1@attacker.example';

/** What `whoami` answered in the JSON-RPC response `id` of an answer. */
function resultOf(answer: H2Answer, id: number): Record<string, unknown> {
  return JSON.parse(toolTextOf(answer, id)) as Record<string, unknown>;
}

type Served = { server: Http2Server | Http2SecureServer; url: string; session: () => ClientHttp2Session };

/** Listens on 127.0.0.1; `session()` opens an HTTP/2 session to it (the test destroys it). */
async function listen(server: Http2Server | Http2SecureServer, scheme: 'http' | 'https'): Promise<Served> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `${scheme}://localhost:${port}`, session: () => h2connect(scheme, port) };
}

function close(server: Http2Server | Http2SecureServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * The Connection headers the handler gave its HTTP/2 responses. HTTP/2 allows none (RFC 9113
 * §8.2.2): node's compatibility API drops one from the answer and prints a process warning,
 * once per process, that it did. The refusals that close an HTTP/1 connection, the legacy SSE
 * stream and the SDK's SSE answers each gave one.
 */
const connectionHeaders: string[] = [];

/**
 * Serves a handler over h2c on 127.0.0.1 for the describe block it is called in, with an HTTP/2
 * session to it; `seen` sees each request before the handler does. The fields are set once
 * `beforeAll` has run.
 */
function serveH2c(start: () => Promise<HttpHandler>, seen?: (req: Http2ServerRequest, res: Http2ServerResponse) => void): { handler: HttpHandler; served: Served; session: ClientHttp2Session } {
  const h2c = {} as { handler: HttpHandler; served: Served; session: ClientHttp2Session };
  beforeAll(async () => {
    h2c.handler = await start();
    const onRequest = (req: Http2ServerRequest, res: Http2ServerResponse) => {
      seen?.(req, res);
      void h2c.handler(req as never, res as never);
    };
    h2c.served = await listen(createServer(onRequest), 'http');
    h2c.session = h2c.served.session();
  });
  afterAll(async () => {
    h2c.session.destroy();
    await h2c.handler.close({ drainTimeoutMs: 0 });
    await close(h2c.served.server);
  });
  return h2c;
}

describe.each([
  ['h2c (http2.createServer)', 'http' as const],
  ['TLS with HTTP/1 allowed (http2.createSecureServer)', 'https' as const],
])('the node handler behind node:http2: %s', (_name, scheme) => {
  let app: App;
  let handler: HttpHandler;
  let served: Served;
  let session: ClientHttp2Session;
  const sessions: ClientHttp2Session[] = [];
  /** Runs once, as the next request reaches the server, before the handler sees it. */
  let arriving: (() => void) | undefined;
  const open = () => {
    const opened = served.session();
    sessions.push(opened);
    return opened;
  };

  beforeAll(async () => {
    connectionHeaders.length = 0;
    app = await createApp({ name: 'h2', version: '1.0.0', tools: [HttpTools, HeaderNamesTools] });
    handler = createHttpHandler(app, { requestLogLevel: 'silent', legacySse: true, maxBodyBytes: 4096 });
    const onRequest = (req: Http2ServerRequest, res: Http2ServerResponse) => {
      watchConnectionHeaders(res, connectionHeaders);
      arriving?.();
      arriving = undefined;
      void handler(req as never, res as never);
    };
    served = await listen(scheme === 'https' ? createSecureServer({ allowHTTP1: true, key: TLS.key, cert: TLS.cert }, onRequest) : createServer(onRequest), scheme);
    session = open();
  });
  afterAll(async () => {
    for (const s of sessions) s.destroy();
    await handler.close({ drainTimeoutMs: 0 });
    await close(served.server);
  });

  it('2025-11-25: initialize, initialized and tools/call in a session', async () => {
    const init = await h2post(session, initializeBody());
    expect(init.status).toBe(200);
    const sessionId = init.headers['mcp-session-id'] as string;
    expect(sessionId).toEqual(expect.any(String));
    expect(messagesOf(init)[0]).toMatchObject({ id: 1, result: { protocolVersion: LEGACY.version } });
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY.version };
    expect((await h2post(session, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    const call = await h2post(session, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: { value: 'over h2' } } }, headers);
    expect(call.status).toBe(200);
    expect(resultOf(call, 2)).toMatchObject({ value: 'over h2', sessionId });
  });

  it('both eras: a tool sees the header fields, without the pseudo-headers', async () => {
    const init = await h2post(session, initializeBody(5));
    const headers = { 'mcp-session-id': init.headers['mcp-session-id'] as string, 'mcp-protocol-version': LEGACY.version, 'x-custom': 'h2' };
    await h2post(session, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    const legacy = resultOf(await h2post(session, { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'header_names', arguments: {} } }, headers), 6);
    const message = MODERN.request({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'header_names', arguments: {} } });
    const modern = resultOf(await h2post(session, message, { ...MODERN.headers(message), 'x-custom': 'h2' }), 7);
    for (const { names } of [legacy, modern] as { names: string[] }[]) {
      expect(names).toEqual(expect.arrayContaining(['content-type', 'x-custom']));
      expect(names.filter((name) => name.startsWith(':'))).toEqual([]);
    }
  });

  it("2025-11-25: the session's GET stream opens as an SSE stream", async () => {
    const init = await h2post(session, initializeBody(3));
    const sessionId = init.headers['mcp-session-id'] as string;
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY.version };
    await h2post(session, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    const opened = await h2open(session, { ':path': '/mcp', ':method': 'GET', accept: 'text/event-stream', ...headers });
    expect(opened.headers[':status']).toBe(200);
    expect(opened.headers['content-type']).toBe('text/event-stream');
    opened.stream.close(constants.NGHTTP2_CANCEL);
    const end = await h2request(session, { ':method': 'DELETE', ...headers });
    expect(end.status).toBe(200);
  });

  it('2026-07-28: a tools/call with its envelope and headers, without a session', async () => {
    const message = MODERN.request({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'whoami', arguments: { value: 'modern' } } });
    const call = await h2post(session, message, MODERN.headers(message));
    expect(call.status).toBe(200);
    expect(resultOf(call, 4)).toMatchObject({ value: 'modern', sessionId: null });
  });

  it('2026-07-28: a subscriptions/listen stream opens as an SSE stream', async () => {
    const message = MODERN.request({ jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } });
    const opened = await h2open(session, { ':path': '/mcp', ':method': 'POST', 'content-type': 'application/json', accept: ACCEPT_BOTH, ...MODERN.headers(message) }, JSON.stringify(message));
    expect(opened.headers[':status']).toBe(200);
    expect(opened.headers['content-type']).toBe('text/event-stream');
    opened.stream.close(constants.NGHTTP2_CANCEL);
  });

  it('the legacy HTTP+SSE transport: GET /sse opens its stream and names the messages URL', async () => {
    const opened = await h2open(session, { ':path': '/sse', ':method': 'GET', accept: 'text/event-stream' });
    expect(opened.headers[':status']).toBe(200);
    expect(opened.headers['content-type']).toBe('text/event-stream');
    expect(await opened.first).toMatch(/^event: endpoint\ndata: \/messages\?sessionId=/);
    opened.stream.close(constants.NGHTTP2_CANCEL);
  });

  it('413 for a body over maxBodyBytes, and the session keeps serving', async () => {
    const big = await h2post(session, { ...initializeBody(9), pad: 'x'.repeat(5000) });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('Payload too large') } });
    expect((await h2post(session, initializeBody(10))).status).toBe(200);
  });

  it('403 for an :authority that names a foreign host on a loopback address (DNS rebinding), and the server keeps serving', async () => {
    const { port } = served.server.address() as AddressInfo;
    for (const message of [initializeBody(5), MODERN.request({ jsonrpc: '2.0', id: 5, method: 'tools/list' })]) {
      const rebound = await h2post(session, message, { ':authority': `attacker.example:${port}`, ...(message.method === 'tools/list' && MODERN.headers(message)) });
      expect(rebound.status).toBe(403);
      expect(JSON.parse(rebound.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('names a host this server does not answer to') } });
      expect(rebound.body).not.toContain('attacker.example');
    }
    expect((await h2post(session, initializeBody(6))).status).toBe(200);
  });

  it('400 for a Host header that names another host than :authority (RFC 9113 §8.3.1); the same host in both is served', async () => {
    const { port } = served.server.address() as AddressInfo;
    const mixed = await h2post(session, initializeBody(7), { ':authority': `localhost:${port}`, host: `attacker.example:${port}` });
    expect(mixed.status).toBe(400);
    expect(JSON.parse(mixed.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('the Host header names another host than :authority') } });
    expect((await h2post(session, initializeBody(8), { ':authority': `localhost:${port}`, host: `LOCALHOST:${port}` })).status).toBe(200);
  });

  it("a Host without a port and an :authority with the scheme's default port (or the other way round) name the same origin: served", async () => {
    const defaultPort = scheme === 'https' ? 443 : 80;
    for (const [authority, host] of [
      ['localhost', `localhost:${defaultPort}`],
      [`LOCALHOST:${defaultPort}`, 'localhost'],
    ]) {
      expect({ authority, host, status: (await h2post(session, initializeBody(11), { ':authority': authority, host })).status }).toEqual({ authority, host, status: 200 });
    }
    // Another port is another origin.
    const other = await h2post(session, initializeBody(12), { ':authority': 'localhost', host: `localhost:${defaultPort + 1}` });
    expect(other.status).toBe(400);
  });

  it('400 for an :authority with user information (or a reset stream, from Node 22 on), in both eras, not a 500 with a stack in the log', async () => {
    const logged = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const modern = MODERN.request({ jsonrpc: '2.0', id: 13, method: 'tools/list' });
      for (const [message, headers] of [
        [initializeBody(13), {}],
        [modern, MODERN.headers(modern)],
      ] as const) {
        const answer = await h2post(session, message, { ':authority': WITH_USER_INFO, ...headers }).catch((error: unknown) => ({ reset: error }));
        // Node 22 and later refuse such an :authority in their HTTP/2 layer, before any handler: the stream is reset.
        if ('reset' in answer) expect(answer.reset).toMatchObject({ code: 'ERR_HTTP2_STREAM_ERROR', message: expect.stringContaining('NGHTTP2_PROTOCOL_ERROR') });
        else {
          expect(answer.status).toBe(400);
          expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('carries user information') } });
        }
      }
      expect(logged.mock.calls.join('')).not.toContain('request failed');
    } finally {
      logged.mockRestore();
    }
    expect((await h2post(session, initializeBody(14))).status).toBe(200);
  });

  it('503 for a request once the handler closes, and GOAWAY: the client opens no new stream on that connection', async () => {
    const goaway = new Promise<void>((resolve) => session.once('goaway', () => resolve()));
    // The handler starts closing as the request reaches it: once it has closed, the connection takes no new stream.
    let closed!: Promise<void>;
    arriving = () => (closed = handler.close({ drainTimeoutMs: 0 }));
    const refused = await h2request(session, { ':method': 'GET', accept: 'text/event-stream' });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('shutting down') } });
    expect(await Promise.race([goaway.then(() => 'goaway'), new Promise((resolve) => setTimeout(resolve, 1_000, 'no goaway').unref())])).toBe('goaway');
    await closed;
  });

  it('no response was given a Connection header (node drops it, and warns)', () => {
    expect(connectionHeaders).toEqual([]);
  });
});

describe('maxUrlLength counts the host of an HTTP/2 request (its :authority) as it counts an HTTP/1 Host', () => {
  const MAX = 80;
  const h2c = serveH2c(async () => createHttpHandler(await createApp({ name: 'url-length', version: '1.0.0', tools: [HttpTools] }), { requestLogLevel: 'silent', maxUrlLength: MAX }));

  it('the same target is 414 over both, the host counted', async () => {
    const { handler, served, session } = h2c;
    const authority = new URL(served.url).host;
    // "http://" + the host + the target is past MAX; the target alone is not.
    const path = `/mcp?${'x'.repeat(MAX - 'http://'.length - '/mcp?'.length - authority.length + 1)}`;
    expect(path.length).toBeLessThanOrEqual(MAX);

    const http1 = createHttp1Server((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => http1.listen(0, '127.0.0.1', resolve));
    const overHttp1 = await new Promise<number>((resolve, reject) => {
      const headers = { host: authority, 'content-type': 'application/json', accept: ACCEPT_BOTH, connection: 'close' };
      const req = http1Request({ host: '127.0.0.1', port: (http1.address() as AddressInfo).port, path, method: 'POST', headers }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end(JSON.stringify(initializeBody(1)));
    });
    await new Promise((resolve) => http1.close(resolve));
    expect(overHttp1).toBe(414);

    const overHttp2 = await h2post(session, initializeBody(1), { ':path': path });
    expect(overHttp2.status).toBe(414);
    expect(JSON.parse(overHttp2.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('URI Too Long') } });
  });
});

describe("httpTransport: 'sdk' behind node:http2", () => {
  const h2c = serveH2c(
    async () => {
      connectionHeaders.length = 0;
      return createHttpHandler(await createApp({ name: 'sdk-h2', version: '1.0.0', tools: [HttpTools] }), { requestLogLevel: 'silent', httpTransport: 'sdk' });
    },
    (_req, res) => watchConnectionHeaders(res, connectionHeaders),
  );

  it("the SDK transport's SSE answer to initialize goes out without its Connection header", async () => {
    const init = await h2post(h2c.session, initializeBody(1));
    expect(init.status).toBe(200);
    expect(init.headers['content-type']).toBe('text/event-stream');
    expect(messagesOf(init)[0]).toMatchObject({ id: 1, result: { protocolVersion: LEGACY.version } });
    expect(connectionHeaders).toEqual([]);
  });
});

describe('a GET stream the client cancels while a shared event store claims it (HTTP/2)', () => {
  let openClaim!: () => void;
  const claimOpened = new Promise<void>((resolve) => (openClaim = resolve));
  let claimAsked!: () => void;
  const claimAsking = new Promise<void>((resolve) => (claimAsked = resolve));
  const claims = { taken: 0, given: 0 };
  /** The first GET's response closed on the server. */
  let firstGetClosed!: Promise<void>;

  // A store shared by instances: the first claim waits until the test lets it through.
  const eventStore: EventStoreFactory = () =>
    Object.assign(new InMemoryEventStore(), {
      claim: async () => {
        claims.taken++;
        claimAsked();
        await claimOpened;
        return () => void claims.given++;
      },
    });
  const h2c = serveH2c(
    async () => createHttpHandler(await createApp({ name: 'claim-h2', version: '1.0.0', tools: [HttpTools] }), { requestLogLevel: 'silent', eventStore }),
    (req, res) => {
      if (req.method === 'GET') firstGetClosed ??= new Promise((resolve) => res.once('close', () => resolve()));
    },
  );

  it('gives the claim back, and the next GET opens its stream (not 409)', async () => {
    const { session } = h2c;
    const init = await h2post(session, initializeBody(1));
    const headers = { 'mcp-session-id': init.headers['mcp-session-id'] as string, 'mcp-protocol-version': LEGACY.version };
    await h2post(session, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);

    const first = session.request({ ':path': '/mcp', ':method': 'GET', accept: 'text/event-stream', ...headers });
    first.on('error', () => undefined);
    await claimAsking;
    first.close(constants.NGHTTP2_CANCEL);
    await firstGetClosed;
    openClaim();
    // The claim is given back once the handler sees its response is gone.
    for (let turn = 0; turn < 20 && claims.given === 0; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(claims).toEqual({ taken: 1, given: 1 });

    const second = await h2open(session, { ':path': '/mcp', ':method': 'GET', accept: 'text/event-stream', ...headers });
    expect(second.headers[':status']).toBe(200);
    second.stream.close(constants.NGHTTP2_CANCEL);
  });
});

describe('the handler closing, over HTTP/2', () => {
  /** Resolves to `outcome`, or to `otherwise` once `ms` passed: a bound on a wait, not a pause. */
  const within = <T>(outcome: Promise<T>, ms: number, otherwise: string): Promise<T | string> => Promise.race([outcome, new Promise<string>((resolve) => setTimeout(resolve, ms, otherwise).unref())]);

  it('a slow call in flight in each era still gets its answer after another stream on its connection got the 503 and GOAWAY', async () => {
    const handler = createHttpHandler(await createApp({ name: 'goaway', version: '1.0.0', tools: [HttpTools] }), { requestLogLevel: 'silent' });
    const served = await listen(
      createServer((req: Http2ServerRequest, res: Http2ServerResponse) => void handler(req as never, res as never)),
      'http',
    );
    const session = served.session();
    try {
      const headers = await h2session(session);
      let started = nextSlowCall();
      const legacy = h2post(session, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: { ms: 400 } } }, headers);
      await started;
      started = nextSlowCall();
      const message = MODERN.request({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow', arguments: { ms: 400 } } });
      const modern = h2post(session, message, MODERN.headers(message));
      await started;
      const goaway = new Promise<string>((resolve) => session.once('goaway', () => resolve('goaway')));
      const closed = handler.close({ drainTimeoutMs: 3_000 });
      expect((await h2request(session, { ':method': 'GET', accept: 'text/event-stream', ...headers })).status).toBe(503);
      expect(await within(goaway, 1_000, 'no goaway')).toBe('goaway');
      const [a, b] = await Promise.all([legacy, modern]);
      expect({ status: a.status, messages: messagesOf(a) }).toMatchObject({ status: 200, messages: [{ id: 2, result: expect.anything() }] });
      expect({ status: b.status, messages: messagesOf(b) }).toMatchObject({ status: 200, messages: [{ id: 3, result: expect.anything() }] });
      await closed;
    } finally {
      session.destroy();
      await close(served.server);
    }
  });

  // Node 20 and 22's `Http2Server.close()` neither closes an idle session nor sends it GOAWAY (24 and 26 do):
  // a client that keeps its connection open, as HTTP/2 clients do, would hold the host's server open.
  it('an idle connection gets GOAWAY, and the server closes without waiting for the client to let it go', async () => {
    const handler = createHttpHandler(await createApp({ name: 'idle', version: '1.0.0', tools: [HttpTools] }), { requestLogLevel: 'silent' });
    const served = await listen(
      createServer((req: Http2ServerRequest, res: Http2ServerResponse) => void handler(req as never, res as never)),
      'http',
    );
    const session = served.session();
    const goaway = new Promise<string>((resolve) => session.once('goaway', () => resolve('goaway')));
    session.on('error', () => undefined);
    try {
      const message = MODERN.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect((await h2post(session, message, MODERN.headers(message))).status).toBe(200);
      await handler.close({ drainTimeoutMs: 0 });
      const closed = close(served.server).then(() => 'closed');
      expect({ goaway: await within(goaway, 1_500, 'no goaway'), server: await within(closed, 1_500, 'still open') }).toEqual({ goaway: 'goaway', server: 'closed' });
    } finally {
      session.destroy();
      await close(served.server);
    }
  });

  /**
   * A server whose every route goes through the handler: `/other` is the host's own, served
   * after `next()`. Its first session is open, with a watch on GOAWAY.
   */
  async function hostServing(name: string): Promise<{ handler: HttpHandler; served: Served; session: ClientHttp2Session; goaway: Promise<string>; goneAway: () => boolean }> {
    const handler = createHttpHandler(await createApp({ name, version: '1.0.0', tools: [HttpTools] }), { requestLogLevel: 'silent' });
    const served = await listen(
      createServer((req: Http2ServerRequest, res: Http2ServerResponse) => void handler(req as never, res as never, () => void res.writeHead(200, { 'content-type': 'text/plain' }).end('host route'))),
      'http',
    );
    const session = served.session();
    session.on('error', () => undefined);
    let goneAway = false;
    const goaway = new Promise<string>((resolve) => session.once('goaway', () => resolve('goaway')));
    session.once('goaway', () => (goneAway = true));
    return { handler, served, session, goaway, goneAway: () => goneAway };
  }

  /**
   * A PING and its answer, once connected (node cancels a PING sent before): the server has then
   * accepted the session, and a frame it sent before the answer (a GOAWAY) has reached the client.
   * Resolves also when the session is gone.
   */
  const pinged = async (session: ClientHttp2Session): Promise<void> => {
    if (session.connecting) await new Promise((resolve) => session.once('connect', resolve));
    return new Promise((resolve) => {
      if (session.destroyed) return resolve();
      session.once('close', () => resolve());
      session.ping(() => resolve());
    });
  };

  /** The host's route on `session`: its body, or the error that kept it from being answered. */
  const hostRoute = (session: ClientHttp2Session): Promise<string> =>
    h2request(session, { ':path': '/other' }).then(
      (answer) => answer.body,
      (error: Error) => String(error),
    );

  it('a host that closes the handler and keeps serving keeps its HTTP/2 connections; once its server stops listening they get GOAWAY and the server closes', async () => {
    const { handler, served, session, goaway, goneAway } = await hostServing('keeps-serving');
    try {
      const message = MODERN.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect((await h2post(session, message, MODERN.headers(message))).status).toBe(200);
      expect(await hostRoute(session)).toBe('host route');
      await handler.close({ drainTimeoutMs: 0 });
      await pinged(session);
      expect({ goaway: goneAway(), again: await hostRoute(session) }).toEqual({ goaway: false, again: 'host route' });
      const closed = close(served.server).then(() => 'closed');
      expect({ goaway: await within(goaway, 1_500, 'no goaway'), server: await within(closed, 1_500, 'still open') }).toEqual({ goaway: 'goaway', server: 'closed' });
    } finally {
      session.destroy();
      await close(served.server);
    }
  });

  // What it proves shows on Node 20 and 22; from 24 on, node's own `server.close()` sends every session GOAWAY.
  it('a connection first seen after the handler closed gets GOAWAY once the server stops listening, as does one its server accepted later and that carried no request', async () => {
    const { handler, served, session, goaway } = await hostServing('seen-after-close');
    let later: ClientHttp2Session | undefined;
    try {
      // Closed before any request: no connection of this server has been seen yet.
      await handler.close({ drainTimeoutMs: 0 });
      expect(await hostRoute(session)).toBe('host route');
      // Opened once a request reached the handler; its answered PING shows the server accepted it.
      later = served.session();
      later.on('error', () => undefined);
      const laterGoaway = new Promise<string>((resolve) => later!.once('goaway', () => resolve('goaway')));
      await pinged(later);
      const closed = close(served.server).then(() => 'closed');
      expect({
        seen: await within(goaway, 1_500, 'no goaway'),
        acceptedLater: await within(laterGoaway, 1_500, 'no goaway'),
        server: await within(closed, 1_500, 'still open'),
      }).toEqual({ seen: 'goaway', acceptedLater: 'goaway', server: 'closed' });
    } finally {
      session.destroy();
      later?.destroy();
      await close(served.server);
    }
  });
});

describe('this suite, on every pinned Node version', () => {
  // What it proves leans on the runtime's HTTP/2 layer (a user-information :authority, idle sessions on close), which changes by version.
  it('is among the suites `npm run test:nodes` runs (scripts/versionSensitiveSuites.js)', () => {
    const root = join(__dirname, '../../..');
    const { SUITES } = require(join(root, 'scripts', 'versionSensitiveSuites.js')) as { SUITES: string[] };
    const path = relative(root, __filename).split('\\').join('/');
    expect({ path, listed: SUITES.some((pattern) => new RegExp(pattern).test(path)) }).toEqual({ path, listed: true });
  });
});
