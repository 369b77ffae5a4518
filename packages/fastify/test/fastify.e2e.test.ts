import 'reflect-metadata';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createApp } from '@toolwright/server';
import { createOAuthServer } from '@toolwright/oauth';
import { createToolwrightPlugin, toolwrightPlugin, type ToolwrightPluginOptions } from '@toolwright/fastify';
import { GreeterTools } from '../../express/test/fixtures/greeterTools';
import { ERAS, INITIALIZE, connectEra, post } from '../../express/test/fixtures/mcpClients';
import { expectServedOAuth } from '../../oauth/test/fixtures/expectServedOAuth';
import { NotesTools } from '../../oauth/test/fixtures/notesTools';
import { onFreePort } from '../../server/test/fixtures/onFreePort';
import { connectionsLeftAfter, leaveAfterASession, openUnusedConnection } from '../../server/test/fixtures/unusedConnections';

/**
 * A real Fastify 5 app on 127.0.0.1 with its own routes, the MCP endpoint registered as a
 * plugin (at the root, or under a prefix), driven by the v1 SDK client (2025-11-25, sessions)
 * and the v2 client (2026-07-28).
 */
async function serve(prefix: string, options: Partial<ToolwrightPluginOptions> = {}): Promise<{ base: string; url: string; fastify: FastifyInstance }> {
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
  const fastify = Fastify();
  fastify.get('/hello', async () => ({ from: 'fastify' }));
  fastify.post('/echo', async (request) => ({ body: request.body }));
  await fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent', maxBodyBytes: 2048, timeouts: { bodyMs: 2000 }, ...options, ...(prefix ? { prefix } : {}) });
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  const { port } = fastify.server.address() as { port: number };
  const base = `http://127.0.0.1:${port}`;
  return { base, url: `${base}${prefix}/mcp`, fastify };
}

/** Router options where this Fastify reads them: `routerOptions` from 5.5 (the top-level ones are deprecated there), top level before. */
function routerOptions(options: { ignoreTrailingSlash?: boolean; caseSensitive?: boolean }): FastifyServerOptions {
  const [major, minor] = (require('fastify/package.json') as { version: string }).version.split('.').map(Number);
  return major > 5 || (major === 5 && minor >= 5) ? { routerOptions: options } : options;
}

describe.each(['', '/api'])('Fastify 5, plugin registered with prefix %j', (prefix) => {
  let served: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    served = await serve(prefix);
  });
  afterAll(() => served.fastify.close());

  it.each(ERAS)('a %s client lists and calls tools; bad arguments are a tool error', async (era) => {
    const client = await connectEra(era, served.url);
    try {
      expect(await client.listToolNames()).toEqual(['add', 'greet']);
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      expect(JSON.parse((await client.callTool('add', { a: 2, b: 3 })).content[0].text!)).toEqual({ sum: 5 });
      const bad = await client.callTool('add', { a: 'two', b: 3 });
      expect(bad.isError).toBe(true);
      if (era === '2025-11-25') expect(client.sessionId).toEqual(expect.any(String));
    } finally {
      await client.close();
    }
  });

  it("the app's own routes still answer beside the endpoint", async () => {
    expect(await (await fetch(`${served.base}/hello`)).json()).toEqual({ from: 'fastify' });
    const echoed = await fetch(`${served.base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":1}' });
    expect(await echoed.json()).toEqual({ body: { x: 1 } });
    expect((await fetch(`${served.base}/healthz`)).status).toBe(404);
  });

  it('the body Fastify parsed is used as is, not read again', async () => {
    // Read twice, the stream would have no data left: the handler would answer 408 after bodyMs.
    const response = await post(served.url, INITIALIZE);
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toEqual(expect.any(String));
    expect(await response.text()).toContain('"protocolVersion":"2025-11-25"');
  });

  it("Fastify's body refusals on the endpoint are JSON-RPC errors without the parser's text; elsewhere Fastify's own", async () => {
    const broken = await post(served.url, '{"jsonrpc": "2.0", "id": 1, "method": "secret-body-text');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the request body is not valid JSON.' } });
    const large = await post(served.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(4000) } }));
    expect(large.status).toBe(413);
    expect(((await large.json()) as { error: { message: string } }).error.message).toMatch(/exceeds 2048 bytes/);
    const media = await fetch(served.url, { method: 'POST', headers: { 'content-type': 'application/xml', accept: 'application/json, text/event-stream' }, body: '<x/>' });
    expect(media.status).toBe(415);
    expect(((await media.json()) as { error: { code: number } }).error.code).toBe(-32000);
    // A text/plain body Fastify parses to a string: Toolwright refuses its media type.
    const text = await fetch(served.url, { method: 'POST', headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' }, body: INITIALIZE });
    expect(text.status).toBe(415);
    // Another route's refusal is what the same Fastify answers without the plugin (its text differs between Fastify releases).
    const elsewhere = await fetch(`${served.base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    const bare = Fastify();
    bare.post('/echo', async (request) => ({ body: request.body }));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const own = await fetch(`http://127.0.0.1:${(bare.server.address() as { port: number }).port}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    await bare.close();
    const ownBody = await own.json();
    expect([elsewhere.status, await elsewhere.json()]).toEqual([own.status, ownBody]);
    expect([own.status, ownBody]).toEqual([400, expect.objectContaining({ statusCode: 400, error: 'Bad Request' })]);
  });

  it("keeps Toolwright's defences: a foreign Origin or Host is refused; an unknown method is 405", async () => {
    expect((await post(served.url, INITIALIZE, { origin: 'https://evil.example' })).status).toBe(403);
    const host = await new Promise<number>((resolve, reject) => {
      const request = require('node:http').request(
        served.url,
        { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
        (res: import('node:http').IncomingMessage) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      request.on('error', reject);
      request.end(INITIALIZE);
    });
    expect(host).toBe(403);
    const put = await fetch(served.url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: INITIALIZE });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
  });
});

describe("Fastify 5, the router's own matching decides what is the endpoint", () => {
  async function listen(fastify: FastifyInstance): Promise<string> {
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    return `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}`;
  }

  it.each(ERAS)("%s: registered with prefix '/mcp' and path '/', the endpoint answers at /mcp and /mcp/, as Fastify routes it", async (era) => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const fastify = Fastify();
    await fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent', prefix: '/mcp', path: '/' });
    const base = await listen(fastify);
    try {
      for (const url of [`${base}/mcp`, `${base}/mcp/`]) {
        const client = await connectEra(era, url);
        expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
        await client.close();
      }
    } finally {
      await fastify.close();
    }
  });

  it('with ignoreTrailingSlash and case-insensitive routes, /mcp/ and /MCP?x=1 are the endpoint, with its defences', async () => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const fastify = Fastify(routerOptions({ ignoreTrailingSlash: true, caseSensitive: false }));
    await fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent' });
    const base = await listen(fastify);
    try {
      for (const path of ['/mcp/', '/MCP?x=1']) {
        const response = await post(`${base}${path}`, INITIALIZE);
        expect(response.status).toBe(200);
        expect(response.headers.get('mcp-session-id')).toEqual(expect.any(String));
        expect((await post(`${base}${path}`, INITIALIZE, { origin: 'https://evil.example' })).status).toBe(403);
      }
    } finally {
      await fastify.close();
    }
  });
});

describe('Fastify 5, the configured path and methods', () => {
  async function listen(fastify: FastifyInstance): Promise<string> {
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    return `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}`;
  }

  it.each(ERAS)("%s: a path with ':' is matched as written, as the node listener matches it, not as a route parameter", async (era) => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const fastify = Fastify();
    await fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent', path: '/mcp:v1' });
    const base = await listen(fastify);
    try {
      const client = await connectEra(era, `${base}/mcp:v1`);
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      await client.close();
      for (const path of ['/mcpX', '/mcp', '/mcp:v2']) expect([path, (await post(`${base}${path}`, INITIALIZE)).status]).toEqual([path, 404]);
    } finally {
      await fastify.close();
    }
  });

  it.each(ERAS)('%s: a path with a space or non-ASCII characters is served at the URL that spells it', async (era) => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const fastify = Fastify();
    await fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent', path: '/outils métier' });
    const base = await listen(fastify);
    try {
      const client = await connectEra(era, `${base}/outils%20m%C3%A9tier`);
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      await client.close();
    } finally {
      await fastify.close();
    }
  });

  it("refuses a path with '*', which Fastify's router would read as a wildcard, saying what to give instead", async () => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const fastify = Fastify();
    await expect(fastify.register(toolwrightPlugin, { app, path: '/mcp/*' })).rejects.toThrow("Toolwright: the endpoint's path '/mcp/*' holds '*'");
    await fastify.close();
  });

  it('a method Fastify does not route is its 404, as for any path; added with fastify.addHttpMethod, it is the endpoint 405 with Allow', async () => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const fastify = Fastify();
    fastify.addHttpMethod('PROPFIND');
    await fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent' });
    const base = await listen(fastify);
    try {
      const propfind = await fetch(`${base}/mcp`, { method: 'PROPFIND' });
      expect([propfind.status, propfind.headers.get('allow'), ((await propfind.json()) as { error: { code: number } }).error.code]).toEqual([405, 'GET, POST, DELETE', -32000]);
      expect((await fetch(`${base}/mcp`, { method: 'MKCOL' })).status).toBe(404);
    } finally {
      await fastify.close();
    }
  });
});

describe('Fastify 5, lifecycle', () => {
  it('fastify.close() ends the sessions and their SSE streams, then closes the server', async () => {
    const served = await serve('');
    const client = await connectEra('2025-11-25', served.url);
    // The v1 client keeps a standalone GET stream open: close() must end it for the server to close.
    await served.fastify.close();
    await expect(fetch(`${served.base}/hello`)).rejects.toThrow();
    await client.close().catch(() => undefined);
  });

  it('a failing start hook fails fastify.ready() with its message', async () => {
    const app = await createApp({
      name: 'broken',
      version: '1.0.0',
      tools: [GreeterTools],
      onStart: () => {
        throw new Error('no database');
      },
    });
    const fastify = Fastify();
    await expect(fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent' })).rejects.toThrow(/no database/);
    await fastify.close();
  });

  it('createToolwrightPlugin() counts the live sessions of its endpoint, under a prefix too, and refuses a second registration', async () => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const mcp = createToolwrightPlugin({ app, requestLogLevel: 'silent' });
    const fastify = Fastify();
    expect(mcp.sessionCount).toBe(0);
    await fastify.register(mcp, { prefix: '/api' });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = fastify.server.address() as { port: number };
    const client = await connectEra('2025-11-25', `http://127.0.0.1:${port}/api/mcp`);
    expect(mcp.sessionCount).toBe(1);
    const modern = await connectEra('2026-07-28', `http://127.0.0.1:${port}/api/mcp`);
    expect((await modern.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
    expect(mcp.sessionCount).toBe(1);
    await modern.close();
    await expect(Fastify().register(mcp)).rejects.toThrow(/registered already/);
    // fastify.close() ends the sessions.
    await fastify.close();
    expect(mcp.sessionCount).toBe(0);
    await client.close().catch(() => undefined);
  });

  it('refuses registration without an app, saying how to pass one', async () => {
    const fastify = Fastify();
    await expect(fastify.register(toolwrightPlugin, {} as ToolwrightPluginOptions)).rejects.toThrow(/needs the app to serve/);
    await fastify.close();
  });
});

describe('Fastify 5, with bearer auth', () => {
  it.each(ERAS)('%s: no token is 401 with the challenge; the RFC 9728 metadata route answers; a token gets in', async (era) => {
    const hour = Math.floor(Date.now() / 1000) + 3600;
    const served = await serve('', {
      auth: {
        resource: 'https://mcp.example.com/mcp',
        authorizationServers: ['https://auth.example.com'],
        verifyToken: (token) => (token === 'good' ? { token, clientId: 'app', scopes: [], expiresAt: hour } : undefined),
      },
    });
    try {
      const anonymous = await post(served.url, INITIALIZE);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toContain('resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"');
      for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
        const metadata = await fetch(`${served.base}${path}`);
        expect(await metadata.json()).toMatchObject({ resource: 'https://mcp.example.com/mcp', authorization_servers: ['https://auth.example.com'] });
      }
      const client = await connectEra(era, served.url, { authorization: 'Bearer good' });
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      await client.close();
    } finally {
      await served.fastify.close();
    }
  });
});

describe('Fastify 5, an app built with createApp({ oauth })', () => {
  const notesOAuth = (issuer: string) => createOAuthServer({ issuer, resource: `${issuer}/mcp`, scopes: ['notes:read', 'notes:write'], signIn: () => ({ subject: 'ada' }) });

  it('serves the authorization server beside /mcp: the SDK v2 client registers, signs in with PKCE and calls a scoped tool; its defences hold', async () => {
    // The issuer is in every token: the port is picked before the app is built, and again if another test takes it first.
    const { base, fastify } = await onFreePort(async (port) => {
      const base = `http://127.0.0.1:${port}`;
      const app = await createApp({ name: 'notes', version: '1.0.0', tools: [NotesTools], oauth: await notesOAuth(base) });
      const fastify = Fastify();
      // The app's own form parser and routes: the authorization server's bodies still reach it unparsed.
      fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));
      fastify.post('/login', async (request) => ({ form: request.body }));
      await fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent' });
      await fastify.listen({ port, host: '127.0.0.1' }).catch(async (error: unknown) => {
        await fastify.close();
        throw error;
      });
      return { base, fastify };
    });
    try {
      await expectServedOAuth({ mcpUrl: `${base}/mcp`, issuer: base });
      const login = await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'user=ada' });
      expect(await login.json()).toEqual({ form: { user: 'ada' } });
    } finally {
      await fastify.close();
    }
  });

  it('refuses a prefix, whose paths could not hold the metadata, naming the full path to give instead', async () => {
    const app = await createApp({ name: 'notes', version: '1.0.0', tools: [NotesTools], oauth: await notesOAuth('http://127.0.0.1:1') });
    const prefixed = Fastify();
    await expect(prefixed.register(toolwrightPlugin, { app, requestLogLevel: 'silent', prefix: '/api' })).rejects.toThrow(
      /lie outside the plugin's prefix '\/api'.*fastify\.register\(toolwrightPlugin, \{ app, path: '\/api\/mcp' \}\)/,
    );
    await prefixed.close();
  });
});

describe('Fastify 5, a drain time out of range', () => {
  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, 1.5])('drainTimeoutMs %s: fastify.register() rejects naming the option and the range', async (drainTimeoutMs) => {
    const app = await createApp({ name: 'notes', version: '1.0.0', tools: [NotesTools] });
    const fastify = Fastify();
    await expect(fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent', drainTimeoutMs })).rejects.toThrow(
      `Toolwright: toolwrightPlugin options: drainTimeoutMs must be a whole number of milliseconds from 0 to 2147483647, got ${drainTimeoutMs}.`,
    );
    await fastify.close();
  });
});

/**
 * Regression: Node's fetch leaves a connection it never uses after a 2025-11-25 client closes
 * its GET stream, and node's `server.close()`, which `fastify.close()` calls, waited for it:
 * about 70 s, Fastify's keep-alive hint.
 */
describe('Fastify 5, closing after clients left', () => {
  it('fastify.close() finishes at once after a 2025-11-25 client with a session and a GET stream closed', async () => {
    const served = await serve('');
    await leaveAfterASession(served.fastify.server, served.url, { name: 'greet', arguments: { name: 'Ada' } });
    expect(await connectionsLeftAfter(served.fastify.server, () => served.fastify.close())).toBe(0);
  });

  it('a connection that never sent a request does not hold fastify.close()', async () => {
    const served = await serve('/api');
    expect((await post(served.url, INITIALIZE)).status).toBe(200);
    const unused = await openUnusedConnection(served.fastify.server);
    try {
      expect(await connectionsLeftAfter(served.fastify.server, () => served.fastify.close())).toBe(0);
    } finally {
      unused.destroy();
    }
  });
});
