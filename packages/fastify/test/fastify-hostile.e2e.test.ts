import 'reflect-metadata';
import Fastify, { type FastifyInstance } from 'fastify';
import { createGunzip, gzipSync } from 'node:zlib';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createApp } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { createToolwrightPlugin, toolwrightPlugin, type ToolwrightFastifyPlugin } from '@toolwright/fastify';
import { browserFetch } from '../../express/test/fixtures/browserFetch';
import { GreeterTools } from '../../express/test/fixtures/greeterTools';
import { ERAS, INITIALIZE, connectEra, post } from '../../express/test/fixtures/mcpClients';

/**
 * Hostile bodies on a real Fastify 5 app that brings its own JSON parser, as apps that keep the
 * raw body for signatures do, and forgets to give JSON.parse's error a status. The endpoint
 * parses its own bodies; the app's parser stays on the app's routes.
 */
async function serveWithOwnParser(): Promise<{ base: string; url: string; fastify: FastifyInstance }> {
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
  const fastify = Fastify();
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  fastify.post('/echo', async (request) => ({ body: request.body }));
  // A host hook before the parser that throws a SyntaxError of its own: it stays the app's error.
  fastify.addHook('onRequest', async (request) => {
    if (request.headers['x-bad-json-header']) JSON.parse(String(request.headers['x-bad-json-header']));
  });
  await fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent' });
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}`;
  return { base, url: `${base}/mcp`, fastify };
}

describe("Fastify 5, the app's own JSON parser in front of the endpoint", () => {
  let served: Awaited<ReturnType<typeof serveWithOwnParser>>;
  beforeAll(async () => {
    served = await serveWithOwnParser();
  });
  afterAll(() => served.fastify.close());

  it.each([
    ['broken JSON', '{"jsonrpc": "2.0", "id": 1, "method": "secret-body-text'],
    ['an empty body', ''],
  ])("%s is a JSON-RPC parse error (400, -32700) without the parser's text, not Fastify's 500", async (_, body) => {
    const response = await post(served.url, body);
    const text = await response.text();
    expect([response.status, JSON.parse(text)]).toEqual([400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the request body is not valid JSON.' } }]);
    expect(text).not.toMatch(/secret-body-text|Unexpected|JSON input/);
  });

  it('a gzip body, or one in a charset other than UTF-8, is refused unread (415), as standalone, and the endpoint keeps serving both eras', async () => {
    const send = (body: Uint8Array, headers: Record<string, string>) =>
      fetch(served.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
    const gzipped = await send(gzipSync(INITIALIZE), { 'content-encoding': 'gzip' });
    expect([gzipped.status, gzipped.headers.get('accept-encoding')]).toEqual([415, 'identity']);
    expect(await gzipped.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('Content-Encoding gzip; this endpoint reads bodies only as sent') } });
    const latin1 = await send(Buffer.from(INITIALIZE.replace('raw', 'café'), 'latin1'), { 'content-type': 'application/json; charset=latin1' });
    expect(latin1.status).toBe(415);
    expect(await latin1.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('JSON is read as UTF-8') } });
    // Another media type is still Fastify's parser's to refuse, with the Content-Type message.
    const media = await send(Buffer.from(INITIALIZE), { 'content-type': 'text/plain; charset=latin1' });
    expect([media.status, ((await media.json()) as { error: { message: string } }).error.message]).toEqual([415, 'Unsupported Media Type: send the body with Content-Type: application/json.']);
    for (const era of ERAS) {
      const client = await connectEra(era, served.url);
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      await client.close();
    }
  });

  it("errors that are not the parser's stay with the app: a host hook's SyntaxError, and the same parser on the app's own route", async () => {
    const hooked = await post(served.url, INITIALIZE, { 'x-bad-json-header': '{' });
    expect(hooked.status).toBe(500);
    expect(await hooked.json()).toMatchObject({ statusCode: 500, error: 'Internal Server Error' });
    const elsewhere = await fetch(`${served.base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(elsewhere.status).toBe(500);
  });
});

/** An initialize request with `bytes` inside its client's name, so that the body is valid JSON whatever the bytes. */
function initializeWithNameBytes(bytes: readonly number[]): Buffer {
  const [head, tail] = INITIALIZE.split('"raw"');
  return Buffer.concat([Buffer.from(`${head}"r`), Buffer.from(bytes), Buffer.from(`w"${tail}`)]);
}

describe('Fastify 5, bodies the endpoint parses as the node listener does, whatever JSON parser the app set', () => {
  const hosts: { name: string; url: string; close(): Promise<unknown> }[] = [];
  beforeAll(async () => {
    const listener = await (await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] })).listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    hosts.push({ name: 'node listener', url: listener.url, close: () => listener.close() });
    const fastify = Fastify();
    await fastify.register(toolwrightPlugin, { app: await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] }), requestLogLevel: 'silent' });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    hosts.push({ name: "Fastify's parser", url: `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}/mcp`, close: () => fastify.close() });
    const own = await serveWithOwnParser();
    hosts.push({ name: "the app's own parser", url: own.url, close: () => own.fastify.close() });
  });
  afterAll(() => Promise.all(hosts.map((host) => host.close())));

  it.each([
    ['a byte that is not UTF-8 in a string', initializeWithNameBytes([0xff])],
    ['an encoded surrogate in a string', initializeWithNameBytes([0xed, 0xa0, 0x80])],
    ['a leading byte-order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(INITIALIZE)])],
    ['a __proto__ member of the request', Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","__proto__":{"x":1}}')],
    ['a constructor member of the request', Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","constructor":{"prototype":{"x":1}}}')],
    ['a __proto__ member inside params', Buffer.from(INITIALIZE.replace('"capabilities":{}', '"capabilities":{"__proto__":{"x":1}}'))],
    ['broken JSON', Buffer.from('{"jsonrpc"')],
  ])('%s: the same status and JSON-RPC answer on each', async (_, body) => {
    const answers = await Promise.all(
      hosts.map(async (host) => {
        const response = await fetch(host.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
        const text = await response.text();
        // The node listener and the plugin frame a stream's events alike but for their ids: the JSON-RPC message is compared.
        const message = response.headers.get('content-type')?.startsWith('text/event-stream')
          ? text
              .split('\n')
              .find((line) => line.startsWith('data: {'))!
              .slice(6)
          : text;
        return { host: host.name, status: response.status, message: JSON.parse(message) as unknown };
      }),
    );
    for (const answer of answers.slice(1)) expect({ ...answer, host: hosts[0].name }).toEqual(answers[0]);
  });
});

describe('Fastify 5, the endpoint with cors, called from a web page', () => {
  it.each(['legacy', 'auto'] as const)("the SDK v2 client (%s negotiation) gets through the browser's preflights: every header it sends is allowed", async (mode) => {
    const page = 'http://app.example.test';
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const fastify = Fastify();
    await fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent', cors: { origins: [page] }, allowedOrigins: [page] });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const refused: string[] = [];
    const client = new Client({ name: 'page', version: '1' }, { versionNegotiation: { mode } });
    try {
      const url = new URL(`http://127.0.0.1:${(fastify.server.address() as { port: number }).port}/mcp`);
      await client.connect(new StreamableHTTPClientTransport(url, { fetch: browserFetch(page, refused) }));
      expect((await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    } finally {
      await client.close().catch(() => undefined);
      await fastify.close();
    }
    expect(refused).toEqual([]);
  });
});

describe('Fastify 5, an app preParsing hook that inflates gzip bodies', () => {
  it('the body it decoded is served: the endpoint refuses only bodies nobody decoded', async () => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const fastify = Fastify();
    fastify.addHook('preParsing', async (request, _reply, payload) => {
      if (request.headers['content-encoding'] !== 'gzip') return payload;
      const inflated = payload.pipe(createGunzip()) as unknown as typeof payload & { receivedEncodedLength?: number };
      inflated.receivedEncodedLength = Number(request.headers['content-length']);
      return inflated;
    });
    await fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent' });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const url = `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}/mcp`;
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', accept: 'application/json, text/event-stream' },
        body: gzipSync(INITIALIZE),
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('"protocolVersion":"2025-11-25"');
    } finally {
      await fastify.close();
    }
  });
});

describe('Fastify 5, methods other than POST with a body: the answer of the node listener, not of Fastify’s parsers', () => {
  let reference: HttpListener;
  let served: { base: string; fastify: FastifyInstance; mcp: ToolwrightFastifyPlugin };
  beforeAll(async () => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    reference = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    const mcp = createToolwrightPlugin({ app: await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] }), requestLogLevel: 'silent' });
    const fastify = Fastify();
    await fastify.register(mcp);
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    served = { base: `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}`, fastify, mcp };
  });
  afterAll(async () => {
    await served.fastify.close();
    await reference.close();
  });

  const answerOf = async (response: Response) => [response.status, response.headers.get('allow'), ((await response.json()) as { error?: { code?: number } }).error?.code];

  it.each(['PUT', 'PATCH', 'DELETE', 'OPTIONS'])('%s with a text/xml, form, multipart or JSON body (or an empty JSON one): the same status, Allow and code as standalone', async (method) => {
    for (const [contentType, body] of [
      ['text/xml', '<propfind/>'],
      ['application/x-www-form-urlencoded', 'a=1'],
      ['multipart/form-data; boundary=x', '--x--'],
      ['application/json', '{"broken'],
      ['application/json', undefined],
    ] as const) {
      const request = { method, headers: { 'content-type': contentType, accept: 'application/json, text/event-stream' }, body };
      const expected = await answerOf(await fetch(`${reference.url}`, request));
      expect([contentType, ...(await answerOf(await fetch(`${served.base}/mcp`, request)))]).toEqual([contentType, ...expected]);
    }
  });

  it('a DELETE carrying a text/xml body still ends its session, and the endpoint keeps serving', async () => {
    const opened = await post(`${served.base}/mcp`, INITIALIZE);
    await opened.text();
    const sessionId = opened.headers.get('mcp-session-id')!;
    expect(served.mcp.sessionCount).toBe(1);
    const ended = await fetch(`${served.base}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, 'content-type': 'text/xml' }, body: '<bye/>' });
    expect(ended.status).toBe(200);
    expect(served.mcp.sessionCount).toBe(0);
    for (const era of ERAS) {
      const client = await connectEra(era, `${served.base}/mcp`);
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      await client.close();
    }
  });
});
