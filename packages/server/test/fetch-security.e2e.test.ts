import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApp, type App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from '@toolwright/server/fetch';
import { tokenTable } from './fixtures/authTokens';
import { ACCEPT_BOTH, initializeBody } from './fixtures/httpHelpers';
import { fetchThrough } from './fixtures/serveFetch';

/**
 * The defences of the fetch handler, the node listener's own rules over `Request`/`Response`:
 * Host and Origin, method and media types, body and URL limits, bearer auth with RFC 9728
 * metadata, and per-member scopes.
 */
const { createErasApp, ErasTools } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App>; ErasTools: new () => unknown };
const URL_ = 'http://localhost/mcp';
const handlers: FetchHandler[] = [];

async function handlerFor(options: FetchHandlerOptions = {}, app?: App): Promise<FetchHandler> {
  const handler = createFetchHandler(app ?? (await createErasApp()), { logError: () => {}, ...options });
  handlers.push(handler);
  return handler;
}
afterAll(() => Promise.all(handlers.map((h) => h.close())));

function postTo(handler: FetchHandler, body: unknown, headers: Record<string, string> = {}, url = URL_): Promise<Response> {
  return handler(new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) }));
}

/** The status of an answer, read to its end: an answer left unread holds `close()` for its whole drain time. */
const statusOf = async (answer: Promise<Response>) => {
  const response = await answer;
  await response.arrayBuffer();
  return response.status;
};
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: number; message: string } }).error;

describe('fetch handler: Host and Origin', () => {
  it('refuses a Host that is not a loopback name by default (DNS rebinding), without echoing it', async () => {
    const handler = await handlerFor();
    const response = await postTo(handler, initializeBody(), {}, 'http://rebound.attacker.example/mcp');
    expect(response.status).toBe(403);
    const error = await errorOf(response);
    expect(error.message).toContain('Host header');
    expect(error.message).not.toContain('attacker');
    expect(await statusOf(postTo(handler, initializeBody()))).toBe(200);
  });

  it('answers the hosts listed in allowedHosts, and only them', async () => {
    const handler = await handlerFor({ allowedHosts: ['mcp.example.com'], stateless: true });
    expect(await statusOf(postTo(handler, initializeBody(), {}, 'https://mcp.example.com/mcp'))).toBe(200);
    expect(await statusOf(postTo(handler, initializeBody(), {}, 'https://other.example.com/mcp'))).toBe(403);
  });

  it('refuses a foreign Origin and lets a localhost page in', async () => {
    const handler = await handlerFor({ stateless: true });
    const refused = await postTo(handler, initializeBody(), { origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toContain('Origin header');
    expect(await statusOf(postTo(handler, initializeBody(), { origin: 'http://localhost:5173' }))).toBe(200);
  });

  it('answers CORS preflights for allowed origins only', async () => {
    const handler = await handlerFor({ stateless: true, cors: true });
    const preflight = await handler(new Request(URL_, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } }));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const foreign = await handler(new Request(URL_, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } }));
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows the 2026-07-28 headers and the Mcp-Param-* ones a preflight asks for, nothing else it asks for', async () => {
    const handler = await handlerFor({ stateless: true, cors: true });
    const asked = 'mcp-method, mcp-name, mcp-param-region, x-secret';
    const preflight = await handler(
      new Request(URL_, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': asked } }),
    );
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['mcp-method', 'mcp-name', 'mcp-param-region']));
    expect(allowed).not.toContain('x-secret');
  });
});

describe('fetch handler: request limits and shape', () => {
  it('refuses a body over maxBodyBytes by its Content-Length (413)', async () => {
    const handler = await handlerFor({ maxBodyBytes: 1024, stateless: true });
    const big = { ...initializeBody(), padding: 'x'.repeat(2000) };
    const response = await postTo(handler, big);
    expect(response.status).toBe(413);
    expect((await errorOf(response)).message).toContain('1024 bytes');
  });

  it('refuses a streamed body once it passes maxBodyBytes, without a Content-Length (413)', async () => {
    const handler = await handlerFor({ maxBodyBytes: 1024, stateless: true });
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 512;
        controller.enqueue(new TextEncoder().encode(' '.repeat(512)));
      },
    });
    const request = new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH }, body: endless, duplex: 'half' } as RequestInit);
    expect(request.headers.get('content-length')).toBeNull();
    expect(await statusOf(handler(request))).toBe(413);
    // It stopped reading soon after the limit instead of buffering the stream.
    expect(sent).toBeLessThan(16 * 1024);
  });

  it('refuses a body that does not arrive within timeouts.bodyMs (408)', async () => {
    const handler = await handlerFor({ timeouts: { bodyMs: 100 }, stateless: true });
    const stalled = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{"jsonrpc"')) });
    const request = new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH }, body: stalled, duplex: 'half' } as RequestInit);
    expect(await statusOf(handler(request))).toBe(408);
  });

  it('refuses a body of declared length that does not arrive within timeouts.bodyMs (408)', async () => {
    const handler = await handlerFor({ timeouts: { bodyMs: 100 }, stateless: true });
    const stalled = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{"jsonrpc"')) });
    const request = new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, 'content-length': '100' }, body: stalled, duplex: 'half' } as RequestInit);
    expect(request.headers.get('content-length')).toBe('100');
    const response = await handler(request);
    expect(response.status).toBe(408);
    expect((await errorOf(response)).message).toContain('within 100 ms');
  });

  it('refuses a body that outgrows its Content-Length past maxBodyBytes (413), as a Request made in process can', async () => {
    const handler = await handlerFor({ maxBodyBytes: 1024, stateless: true });
    const body = JSON.stringify({ ...initializeBody(), padding: 'x'.repeat(2000) });
    const response = await postTo(handler, body, { 'content-length': '100' });
    expect(response.status).toBe(413);
    expect((await errorOf(response)).message).toContain('1024 bytes');
  });

  it('reads a body of declared length whole, natively (no stream reader: on workerd a reader costs more per call than the request), and a chunked one as a stream', async () => {
    const handler = await handlerFor({ stateless: true });
    const reads: string[] = [];
    // The runtime's own arrayBuffer() takes a reader of the body inside: that one is not the handler's.
    let native = false;
    const { arrayBuffer } = Request.prototype;
    const bodyOf = Object.getOwnPropertyDescriptor(Request.prototype, 'body')!.get!;
    /** A Request whose arrayBuffer() and body readers are noted in `reads`. */
    const watched = (init: RequestInit): Request => {
      const request = new Request(URL_, init);
      Object.defineProperties(request, {
        arrayBuffer: {
          value(this: Request) {
            reads.push('arrayBuffer');
            native = true;
            try {
              return arrayBuffer.call(this);
            } finally {
              native = false;
            }
          },
        },
        body: {
          get(this: Request) {
            const stream = bodyOf.call(this) as ReadableStream<Uint8Array> | null;
            if (!stream) return stream;
            const getReader = stream.getReader.bind(stream) as () => ReadableStreamDefaultReader<Uint8Array>;
            return Object.assign(stream, {
              getReader: () => {
                if (!native) reads.push('reader');
                return getReader();
              },
            });
          },
        },
      });
      return request;
    };
    const json = JSON.stringify(initializeBody());
    const headers = { 'content-type': 'application/json', accept: ACCEPT_BOTH };
    const declared = watched({ method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(json)) }, body: json });
    expect(await statusOf(handler(declared))).toBe(200);
    expect(reads).toEqual(['arrayBuffer']);
    reads.length = 0;
    const chunked = watched({ method: 'POST', headers, body: new Blob([json]).stream(), duplex: 'half' } as RequestInit);
    expect(chunked.headers.get('content-length')).toBeNull();
    expect(await statusOf(handler(chunked))).toBe(200);
    expect(reads).toEqual(['reader']);
  });

  it('refuses a URL longer than maxUrlLength (414)', async () => {
    const handler = await handlerFor({ maxUrlLength: 200, stateless: true });
    expect(await statusOf(postTo(handler, initializeBody(), {}, `${URL_}?q=${'a'.repeat(300)}`))).toBe(414);
    expect(await statusOf(postTo(handler, initializeBody(), {}, `${URL_}?q=short`))).toBe(200);
  });

  it('answers a request whose body code before it read with a JSON-RPC 500, logs what to change, and keeps serving', async () => {
    const logged: string[] = [];
    const handler = await handlerFor({ stateless: true, logError: (message) => logged.push(message) });
    const json = JSON.stringify(initializeBody());
    // With a Content-Length (read natively) and without one (read as a stream): neither blames the client.
    const lengths: Record<string, string>[] = [{ 'content-length': String(Buffer.byteLength(json)) }, {}];
    for (const length of lengths) {
      const request = new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...length }, body: json });
      await request.text();
      const response = await handler(request);
      expect(response.status).toBe(500);
      expect(await errorOf(response)).toEqual({ code: -32603, message: 'Internal error: the request body was read before the MCP endpoint got it. The server log has the details.' });
    }
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/^toolwright fetch: the body of POST \/mcp was read before the handler got the request\..*request\.clone\(\)/);
    expect(await statusOf(postTo(handler, initializeBody()))).toBe(200);
  });

  it('logs a request refused again and again a few times per 10 s by default, not once each, and the count left out when it closes', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // No logError: the default one.
      const handler = createFetchHandler(await createErasApp(), { stateless: true });
      const json = JSON.stringify(initializeBody());
      for (let i = 0; i < 50; i++) {
        const request = new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH }, body: json });
        await request.text();
        expect(await statusOf(handler(request))).toBe(500);
      }
      expect(errors).toHaveBeenCalledTimes(5);
      expect(String(errors.mock.calls[0][0])).toMatch(/^toolwright fetch: the body of POST \/mcp was read before/);
      expect(await statusOf(postTo(handler, initializeBody()))).toBe(200);
      // Closed, the handler writes the count now: not 10 s later from a timer, after its owner is gone.
      await handler.close();
      expect(errors).toHaveBeenCalledTimes(6);
      expect(String(errors.mock.calls[5][0])).toMatch(/^toolwright fetch: the body of POST \/mcp was read before the \.\.\. \(45 more line\(s\) like this left out in 10 s\)$/);
    } finally {
      errors.mockRestore();
    }
  });

  it('refuses wrong methods, media types, JSON and messages as the node listener does', async () => {
    const handler = await handlerFor({ stateless: true });
    expect(await statusOf(handler(new Request(URL_, { method: 'PUT' })))).toBe(405);
    const get = await handler(new Request(URL_, { headers: { accept: 'text/event-stream' } }));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await statusOf(postTo(handler, initializeBody(), { accept: 'application/json' }))).toBe(406);
    expect(await statusOf(postTo(handler, initializeBody(), { 'content-type': 'text/plain' }))).toBe(415);
    const unparsable = await postTo(handler, '{"jsonrpc":');
    expect(unparsable.status).toBe(400);
    expect((await errorOf(unparsable)).code).toBe(-32700);
    expect(await statusOf(postTo(handler, { jsonrpc: '1.0', id: 1, method: 'x' }))).toBe(400);
    expect(await statusOf(postTo(handler, initializeBody(), { 'mcp-protocol-version': '1999-01-01' }))).toBe(400);
  });

  it('serves /healthz, 404 elsewhere, and 503 once closing', async () => {
    const handler = await handlerFor({ stateless: true });
    expect(await statusOf(handler(new Request('http://localhost/healthz')))).toBe(200);
    expect(await statusOf(handler(new Request('http://localhost/elsewhere')))).toBe(404);
    await handler.close();
    expect(await statusOf(handler(new Request('http://localhost/readyz')))).toBe(503);
    expect(await statusOf(postTo(handler, initializeBody()))).toBe(503);
  });
});

describe('fetch handler: bearer auth, RFC 9728 metadata and scopes', () => {
  const resource = 'https://mcp.example.com/mcp';
  const auth = { verifyToken: tokenTable(() => resource), resource, authorizationServers: ['https://auth.example.com'] };
  const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'write', arguments: { note: 'x' } } };
  const host = 'https://mcp.example.com';

  it('answers 401 with a challenge naming the metadata, and serves the metadata document', async () => {
    const handler = await handlerFor({ auth, allowedHosts: ['mcp.example.com'] });
    const refused = await postTo(handler, initializeBody(), {}, resource);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"');
    const metadata = await handler(new Request(`${host}/.well-known/oauth-protected-resource/mcp`));
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toEqual({ resource, authorization_servers: ['https://auth.example.com'], bearer_methods_supported: ['header'] });
    const bad = await postTo(handler, initializeBody(), { authorization: 'Bearer nobody' }, resource);
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await statusOf(postTo(handler, initializeBody(), { authorization: 'Bearer expired' }, resource))).toBe(401);
    expect(await statusOf(postTo(handler, initializeBody(), { authorization: 'Bearer elsewhere' }, resource))).toBe(401);
  });

  it('holds per-member scopes in both eras: hidden without hints, 403 naming the scope with scopeHints', async () => {
    const hinted = await createApp({ name: 'eras', version: '1.0.0', tools: [ErasTools as never], scopeHints: true });
    const handler = await handlerFor({ auth, allowedHosts: ['mcp.example.com'], stateless: true }, hinted);
    const refused = await postTo(handler, call, { authorization: 'Bearer reader' }, resource);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('scope="notes:read notes:write"');
    const anonymous = await postTo(handler, call, {}, resource);
    expect(anonymous.status).toBe(401);

    const plain = await handlerFor({ auth, allowedHosts: ['mcp.example.com'] });
    for (const era of ['legacy', 'modern'] as const) {
      for (const [token, allowed] of [
        ['reader', false],
        ['writer', true],
      ] as const) {
        const options = { fetch: fetchThrough(plain), requestInit: { headers: { authorization: `Bearer ${token}` } } };
        const client = era === 'legacy' ? new LegacyClient({ name: 'c', version: '1' }) : new ModernClient({ name: 'c', version: '1' }, { versionNegotiation: { mode: 'auto' } });
        await client.connect(era === 'legacy' ? new LegacyHttp(new URL(resource), options) : new ModernHttp(new URL(resource), options));
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names.includes('write')).toBe(allowed);
        if (allowed) expect(((await client.callTool({ name: 'write', arguments: { note: 'x' } })) as { content: { text: string }[] }).content[0].text).toBe('wrote x');
        // Answered as for a tool that does not exist: the caller learns nothing of it.
        else await expect(client.callTool({ name: 'write', arguments: { note: 'x' } })).rejects.toThrow("Unknown tool 'write'");
        await client.close();
      }
    }
  });
});
