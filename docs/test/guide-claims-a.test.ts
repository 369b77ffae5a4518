/**
 * Pins what the guide pages on security, Streamable HTTP, transports, the fetch handler, the
 * protocol eras and the lifecycle hooks say a client sees, for the statements no snippet test
 * covers. Each case builds an app with `createApp` and drives it over a real transport: HTTP
 * on 127.0.0.1, stdio on in-memory streams, or a fetch handler given web `Request`s.
 */
import { connect as connectTcp, createServer } from 'node:net';
import { Ctx, OnShutdown, OnStart, Param, Tool, type ToolContext } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { ACCEPT_BOTH, initializeBody, messagesOf, openRawSession, post, rawRequest } from '../../packages/server/test/fixtures/httpHelpers';
import { listenInMemory } from '../../packages/server/test/fixtures/memoryStdio';
import { waitFor } from '../../packages/server/test/fixtures/waitFor';

let stderr: jest.SpyInstance;
beforeAll(() => {
  stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterAll(() => stderr.mockRestore());

const FORM = { type: 'object', properties: { name: { type: 'string' } } } as const;

class DocsTools {
  @Tool({ description: 'Echo a text back.' })
  echo(@Param('text') text: string) {
    return text;
  }

  @Tool({ description: 'Ask the user for a name.' })
  async ask(@Ctx() ctx: ToolContext) {
    return JSON.stringify(await ctx.elicit('Your name?', FORM));
  }

  @Tool({ description: 'Ask, and swallow whatever the question throws.' })
  async swallow(@Ctx() ctx: ToolContext) {
    try {
      await ctx.elicit('Your name?', FORM);
    } catch {
      // The page says: rethrow a CallInterrupt. This one does not, on purpose.
    }
    return 'my own result';
  }
}

const quiet = { exitOnSignal: false, requestLogLevel: 'silent' as const };
const LEGACY = { 'mcp-protocol-version': '2025-11-25' };
const ENVELOPE = (capabilities: object) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  'io.modelcontextprotocol/clientInfo': { name: 'docs', version: '1' },
});
/** A 2026-07-28 `tools/call` of `name` and the headers that go with it. */
const modernCall = (name: string, capabilities: object = {}) =>
  [
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {}, _meta: ENVELOPE(capabilities) } },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
  ] as const;
const json = async (response: Response) => ({ status: response.status, body: JSON.parse(await response.text()) as Record<string, unknown> });

/** Writes `text` on a raw TCP connection and resolves with what the server answered. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connectTcp(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      data += chunk;
      if (data.includes('\r\n\r\n{') && data.endsWith('}')) socket.destroy();
    });
    socket.on('close', () => resolve(data));
    socket.on('error', () => undefined);
  });
}

describe('Security page: know the defaults', () => {
  it('refuses what the table lists, with the status it gives, and a 403 never echoes the header', async () => {
    const app = await createApp({ name: 'docs', version: '1.0.0', tools: [DocsTools] });
    const listener = await app.listen({ transport: 'http', port: 0, ...quiet });
    const { url } = listener;
    try {
      // Origin: absent or localhost on any port passes, another is 403 naming the header, not its value.
      expect((await post(url, initializeBody(), { origin: 'http://localhost:5173' })).status).toBe(200);
      const origin = await json(await post(url, initializeBody(), { origin: 'https://evil.example' }));
      expect(origin).toMatchObject({ status: 403, body: { id: null, error: { code: -32000, message: expect.stringContaining('Origin header') } } });
      expect(JSON.stringify(origin.body)).not.toContain('evil.example');
      const host = await rawRequest(url, { method: 'POST', headers: { host: 'rebind.example', 'content-type': 'application/json', accept: ACCEPT_BOTH }, body: JSON.stringify(initializeBody()) });
      expect(host.status).toBe(403);
      expect(host.body).toContain('Host header');
      expect(host.body).not.toContain('rebind.example');
      // Media types, charsets, codings.
      expect((await post(url, initializeBody(), { accept: 'application/json' })).status).toBe(406);
      expect((await post(url, initializeBody(), { 'content-type': 'text/plain' })).status).toBe(415);
      expect((await post(url, initializeBody(), { 'content-type': 'application/json; charset=utf-16' })).status).toBe(415);
      const gzip = await post(url, initializeBody(), { 'content-encoding': 'gzip' });
      expect([gzip.status, gzip.headers.get('accept-encoding')]).toEqual([415, 'identity']);
      expect(await json(await post(url, '{not json'))).toMatchObject({ status: 400, body: { id: null, error: { code: -32700 } } });
      // Sessions: required after initialize (400), unknown (404, -32001); the version must be the negotiated one.
      const session = await openRawSession(url);
      const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
      expect(await json(await post(url, ping, LEGACY))).toMatchObject({ status: 400, body: { id: null, error: { code: -32000 } } });
      expect(await json(await post(url, ping, { ...LEGACY, 'mcp-session-id': 'not-a-session' }))).toMatchObject({ status: 404, body: { id: null, error: { code: -32001 } } });
      expect((await post(url, ping, { 'mcp-protocol-version': '2025-06-18', 'mcp-session-id': session })).status).toBe(400);
      // Two Host headers: 400 (RFC 9112).
      const twoHosts = await rawExchange(
        listener.port,
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: ${ACCEPT_BOTH}\r\nContent-Length: 2\r\n\r\n{}`,
      );
      expect(twoHosts).toMatch(/^HTTP\/1\.1 400 /);
      // CORS off: a preflight gets no Access-Control-Allow-Origin.
      const preflight = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      // Health answers the status only.
      expect(await (await fetch(new URL('/healthz', url))).json()).toEqual({ status: 'ok' });
      expect(await (await fetch(new URL('/readyz', url))).json()).toEqual({ status: 'ok' });
    } finally {
      await listener.close();
    }
  });

  it('answers a preflight with cors: true, allowing the MCP headers and the Mcp-Param-* ones asked for, no other', async () => {
    const app = await createApp({ name: 'docs', version: '1.0.0', tools: [DocsTools] });
    const listener = await app.listen({ transport: 'http', port: 0, ...quiet, cors: true });
    try {
      const preflight = await fetch(listener.url, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-secret, mcp-param-region' },
      });
      expect(preflight.status).toBe(204);
      const allowed = preflight.headers.get('access-control-allow-headers')!.split(', ');
      expect(allowed).toEqual(['Content-Type', 'Accept', 'Authorization', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Last-Event-ID', 'mcp-param-region']);
      expect(preflight.headers.get('access-control-expose-headers')).toBe('Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate');
    } finally {
      await listener.close();
    }
  });
});

describe('Security page: require a token', () => {
  /** A verifier of API keys: 'alice' and 'bob' hold scope a, 'carol' none. */
  const verifyToken = (token: string) => (['alice', 'bob', 'carol'].includes(token) ? { token, clientId: 'keys', scopes: token === 'carol' ? [] : ['a'], extra: { sub: token } } : undefined);

  it('challenges with the metadata URL, serves RFC 9728 metadata at both paths, and binds sessions to their caller', async () => {
    const app = await createApp({ name: 'docs', version: '1.0.0', tools: [DocsTools] });
    const listener = await app.listen({ transport: 'http', port: 0, ...quiet, auth: { authorizationServers: ['https://auth.example.com'], verifyToken, requiredScopes: ['a'] } });
    const { url } = listener;
    const metadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', url).href;
    try {
      const missing = await post(url, initializeBody());
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}", scope="a"`);
      const invalid = await post(url, initializeBody(), { authorization: 'Bearer mallory' });
      expect(invalid.status).toBe(401);
      expect(invalid.headers.get('www-authenticate')).toContain('error="invalid_token", error_description="The access token is invalid."');
      const scope = await post(url, initializeBody(), { authorization: 'Bearer carol' });
      expect(scope.status).toBe(403);
      expect(await scope.json()).toEqual({ error: 'insufficient_scope', error_description: 'The access token lacks a scope this server requires.' });
      for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
        expect(await (await fetch(new URL(path, url))).json()).toMatchObject({ resource: url, authorization_servers: ['https://auth.example.com'] });
      }
      // Another caller's token gets 404 for the same session id.
      const session = await openRawSession(url, { authorization: 'Bearer alice' });
      const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
      expect((await post(url, ping, { ...LEGACY, authorization: 'Bearer bob', 'mcp-session-id': session })).status).toBe(404);
      expect((await post(url, ping, { ...LEGACY, authorization: 'Bearer alice', 'mcp-session-id': session })).status).toBe(200);
    } finally {
      await listener.close();
    }
  });

  it('serves no metadata without authorizationServers, and challenges with realm="mcp"', async () => {
    const app = await createApp({ name: 'docs', version: '1.0.0', tools: [DocsTools] });
    const listener = await app.listen({ transport: 'http', port: 0, ...quiet, auth: { verifyToken } });
    try {
      const missing = await post(listener.url, initializeBody());
      expect([missing.status, missing.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="mcp"']);
      expect((await fetch(new URL('/.well-known/oauth-protected-resource/mcp', listener.url))).status).toBe(404);
    } finally {
      await listener.close();
    }
  });
});

describe('Streamable HTTP page', () => {
  it('answers GET and DELETE with 405 in stateless mode, and turns the health endpoints off with health: false', async () => {
    const app = await createApp({ name: 'docs', version: '1.0.0', tools: [DocsTools] });
    const listener = await app.listen({ transport: 'http', port: 0, ...quiet, stateless: true, health: false });
    try {
      expect((await fetch(listener.url, { headers: { accept: 'text/event-stream' } })).status).toBe(405);
      expect((await fetch(listener.url, { method: 'DELETE' })).status).toBe(405);
      expect((await fetch(new URL('/healthz', listener.url))).status).toBe(404);
    } finally {
      await listener.close();
    }
  });

  it('prints one listening line with the URL, and logs each request as one JSON line, refusals at warn', async () => {
    const lines: string[] = [];
    const app = await createApp({ name: 'docs', version: '1.0.0', tools: [DocsTools] });
    const listener = await app.listen({ transport: 'http', port: 0, exitOnSignal: false, logWrite: (line) => lines.push(line) });
    try {
      await (await post(listener.url, initializeBody(), { origin: 'https://evil.example' })).text();
      const logged = lines
        .join('')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(logged).toEqual([
        expect.objectContaining({ level: 'info', msg: 'listening', url: listener.url }),
        expect.objectContaining({ level: 'warn', msg: 'http request', method: 'POST', path: '/mcp', status: 403 }),
      ]);
    } finally {
      await listener.close();
    }
  });
});

describe('Streamable HTTP page: serve both protocol eras', () => {
  it('answers server/discover with the supported versions, and an unknown version with -32022 listing them', async () => {
    const app = await createApp({ name: 'docs', version: '1.0.0', tools: [DocsTools] });
    const listener = await app.listen({ transport: 'http', port: 0, ...quiet });
    try {
      const discover = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: ENVELOPE({}) } };
      const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' };
      expect(await json(await post(listener.url, discover, headers))).toMatchObject({ status: 200, body: { result: { supportedVersions: ['2026-07-28'] } } });
      const later = { ...discover, params: { _meta: { ...ENVELOPE({}), 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } } };
      expect(await json(await post(listener.url, later, { ...headers, 'mcp-protocol-version': '2027-01-01' }))).toMatchObject({
        status: 400,
        body: { id: 1, error: { code: -32022, data: { supported: ['2026-07-28'] } } },
      });
    } finally {
      await listener.close();
    }
  });
});

describe('Transports page: how a stdio server stops', () => {
  it('keeps reading while it drains: new requests get -32000 with their id, and the client can still answer a question', async () => {
    const app = await createApp({ name: 'docs', version: '1.0.0', tools: [DocsTools] });
    const stdio = await listenInMemory(app);
    stdio.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'docs', version: '1' } } });
    await stdio.answer(1);
    stdio.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    stdio.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    const question = await waitFor(() => stdio.out.find((m) => m.method === 'elicitation/create'), 'the elicitation request');
    const closed = stdio.close(); // what stdin ending or a signal starts
    stdio.send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    expect(await stdio.answer(3)).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32000, message: expect.stringContaining('shutting down') } });
    stdio.send({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { name: 'Ada' } } });
    expect(await stdio.answer(2)).toMatchObject({ result: { content: [{ type: 'text', text: '{"action":"accept","content":{"name":"Ada"}}' }] } });
    await closed;
  });

  it('answers a server/discover probe without pinning the era: the client may still send initialize', async () => {
    const app = await createApp({ name: 'docs', version: '1.0.0', tools: [DocsTools] });
    const stdio = await listenInMemory(app);
    stdio.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: ENVELOPE({}) } });
    expect(await stdio.answer(1)).toMatchObject({ result: { supportedVersions: ['2026-07-28'] } });
    stdio.send(initializeBody(2));
    expect(await stdio.answer(2)).toMatchObject({ result: { protocolVersion: '2025-11-25', serverInfo: { name: 'docs' } } });
    await stdio.close();
  });
});

describe('Protocol eras page: round trips', () => {
  it('answers a question on 2025-era stateless HTTP, and one the client cannot answer, as the page says', async () => {
    const app = await createApp({ name: 'docs', version: '1.0.0', tools: [DocsTools] });
    const listener = await app.listen({ transport: 'http', port: 0, ...quiet, stateless: true });
    try {
      const stateless = await messagesOf(await post(listener.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: {} } }, LEGACY));
      expect(stateless).toMatchObject([{ id: 1, result: { isError: true, content: [{ text: expect.stringContaining('stateless HTTP') }] } }]);
      // 2026-07-28 without the elicitation capability: -32021, HTTP 400.
      const [body, headers] = modernCall('ask');
      expect(await json(await post(listener.url, body, headers))).toMatchObject({ status: 400, body: { id: 1, error: { code: -32021 } } });
      // A CallInterrupt swallowed by the tool: the round's question still goes out, not the tool's result.
      const [swallowed, swallowedHeaders] = modernCall('swallow', { elicitation: {} });
      const round = await json(await post(listener.url, swallowed, swallowedHeaders));
      expect(round).toMatchObject({ status: 200, body: { result: { resultType: 'input_required', inputRequests: { 'elicit-1': { method: 'elicitation/create' } } } } });
    } finally {
      await listener.close();
    }
    // A 2025-era session whose client declared no elicitation: an isError result naming the capability.
    const stdio = await listenInMemory(app);
    stdio.send(initializeBody(1));
    await stdio.answer(1);
    stdio.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    stdio.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    expect(await stdio.answer(2)).toMatchObject({ result: { isError: true, content: [{ text: expect.stringContaining("no 'elicitation' capability") }] } });
    await stdio.close();
  });
});

describe('Lifecycle page', () => {
  it('runs start hooks before the port opens, and shutdown hooks once, after the last listener, in reverse order; a failing one does not stop the rest', async () => {
    const events: string[] = [];
    const port = await freePort();
    class Cache {
      @OnStart() async open() {
        // Over HTTP, before the port opens: nothing answers on it yet.
        events.push(
          `cache open, port ${await fetch(`http://127.0.0.1:${port}/healthz`).then(
            () => 'answers',
            () => 'closed',
          )}`,
        );
      }
      @OnShutdown() close() {
        events.push('cache close');
      }
    }
    class Queue {
      @OnStart() open() {
        events.push('queue open');
      }
      @OnShutdown() close() {
        events.push('queue close');
        throw new Error('queue close failed');
      }
    }
    const app = await createApp({
      name: 'docs',
      version: '1.0.0',
      tools: [DocsTools],
      services: [Cache, Queue],
      onStart: () => void events.push('onStart'),
      onShutdown: () => void events.push('onShutdown'),
    });
    const first = await app.listen({ transport: 'http', port, ...quiet });
    const second = await app.listen({ transport: 'http', port: 0, ...quiet });
    try {
      expect(events).toEqual(['onStart', 'cache open, port closed', 'queue open']);
      await first.close();
      expect(events).toHaveLength(3); // the second listener still serves with them
      stderr.mockClear();
      await second.close();
      expect(events.slice(3)).toEqual(['queue close', 'cache close', 'onShutdown']);
      expect(stderr.mock.calls.map((call) => String(call[0])).join('')).toContain('the shutdown hook Queue.close failed');
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('stops startup when a start hook throws: listen rejects with a startup error naming the hook', async () => {
    const app = await createApp({
      name: 'docs',
      version: '1.0.0',
      tools: [DocsTools],
      onStart: () => {
        throw new Error('database unreachable');
      },
    });
    await expect(app.listen({ transport: 'http', port: 0, ...quiet })).rejects.toMatchObject({
      kind: 'startup',
      message: 'Toolwright: the start hook onStart failed, so the server did not start: database unreachable',
    });
  });
});

describe('Fetch handler page', () => {
  const request = (url = 'http://localhost/mcp') => new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH }, body: JSON.stringify(initializeBody()) });

  it('app.fetch needs no `this`, and a start hook that throws makes every request a 500 that does not say why', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const app = await createApp({
      name: 'docs',
      version: '1.0.0',
      tools: [DocsTools],
      onStart: () => {
        throw new Error('secret-db-password rejected');
      },
    });
    const { fetch: serve } = app;
    for (let i = 0; i < 2; i++) {
      const answer = await serve(request());
      expect(answer.status).toBe(500);
      expect(await answer.text()).not.toContain('secret-db-password');
    }
    expect(errors.mock.calls.join('\n')).toContain('secret-db-password rejected');
    errors.mockRestore();
  });

  it('requires auth.resource, refuses a body read before it, a long URL, and new requests once closing', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const app = await createApp({ name: 'docs', version: '1.0.0', tools: [DocsTools] });
    expect(() => createFetchHandler(app, { auth: { verifyToken: () => undefined } })).toThrow(
      expect.objectContaining({ kind: 'config', message: expect.stringContaining('auth.resource is required') }),
    );
    const handler = createFetchHandler(app);
    const read = request();
    await read.text();
    expect(await json(await handler(read))).toMatchObject({ status: 500, body: { error: { code: -32603 } } });
    expect(errors.mock.calls.join('\n')).toContain('request.clone()');
    expect((await handler(new Request(`http://localhost/mcp?${'a'.repeat(8192)}`))).status).toBe(414);
    const closed = handler.close({ drainTimeoutMs: 100 });
    expect((await handler(request())).status).toBe(503);
    await closed;
    errors.mockRestore();
  });
});

/** A port nothing listens on (taken and released by the OS). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
