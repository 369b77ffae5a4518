import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Server } from '@modelcontextprotocol/server';
import { createApp } from '@toolwright/server';
import { InMemoryEventStore } from '@toolwright/server/http';
import { NodeStreamableTransport, type NodeStreamableTransportOptions } from '../src/http/NodeStreamableTransport';
import { HttpTools } from './fixtures/http.tools';
import { ACCEPT_BOTH, initializeBody, messagesOf, post, watchGetStream } from './fixtures/httpHelpers';
import { signal } from './fixtures/waitFor';

/**
 * The lean transport on its own, under a bare SDK `Server` and a minimal router (no
 * createHttpHandler): SSE framing, routing by relatedRequestId, JSON mode, batches, the GET
 * stream, DELETE and resumability, over real sockets with the SDK client and raw fetch.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The `hold` tool's call: started when it runs, then waits until the test releases it. */
let held = { started: signal(), release: signal() };

function mcpServer(): Server {
  const server = new Server({ name: 'transport-test', version: '1' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler('tools/list', async () => ({ tools: [] }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const text = (value: unknown) => ({ content: [{ type: 'text' as const, text: typeof value === 'string' ? value : JSON.stringify(value) }] });
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const token = request.params._meta?.progressToken;
    switch (request.params.name) {
      case 'progress': {
        for (let i = 1; i <= 3; i++) {
          if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 3, message: String(args.tag) } });
          await sleep(Number(args.ms ?? 1));
        }
        return text(`done ${String(args.tag)}`);
      }
      case 'ask': {
        const answer = await ctx.mcpReq.send({ method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } });
        return text(`hello ${String(answer.content?.name)}`);
      }
      case 'pause': {
        // Ends this request's stream; the client resumes with Last-Event-ID and gets the rest.
        ctx.http?.closeSSE?.();
        await sleep(30);
        if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: 1 } });
        await sleep(30);
        return text(`resumed (closeSSEStream ${ctx.http?.closeSSE ? 'given' : 'absent'})`);
      }
      case 'hold':
        held.started.resolve();
        await held.release.promise;
        return text('released');
      case 'info':
        // The transport keeps each open request's headers; it builds no web Request per message.
        return text({
          sessionId: ctx.sessionId ?? null,
          tag: (server.transport as NodeStreamableTransport).requestHeaders(ctx.mcpReq.id)?.['x-tag'] ?? null,
          clientId: ctx.http?.authInfo?.clientId ?? null,
        });
      default:
        throw new Error(`unknown tool ${request.params.name}`);
    }
  });
  return server;
}

/** A minimal stateful router around the transport; `stateless` makes a transport per request. */
async function serve(options: NodeStreamableTransportOptions & { stateless?: boolean } = {}) {
  const sessions = new Map<string, { transport: NodeStreamableTransport; server: Server }>();
  const handle = async (req: IncomingMessage & { auth?: { token: string; clientId: string; scopes: string[] } }, res: ServerResponse) => {
    let body: unknown;
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    }
    if (req.headers.authorization) req.auth = { token: 'x', clientId: req.headers.authorization.slice(7), scopes: [] };
    if (options.stateless) {
      const server = mcpServer();
      const transport = new NodeStreamableTransport({ ...options, sessionId: undefined });
      await server.connect(transport);
      res.once('close', () => void server.close());
      return transport.handleRequest(req, res, body);
    }
    const id = req.headers['mcp-session-id'] as string | undefined;
    let session = id ? sessions.get(id) : undefined;
    if (!session) {
      if (id || (body as { method?: string })?.method !== 'initialize') return void res.writeHead(id ? 404 : 400).end();
      const sessionId = randomUUID();
      const transport = new NodeStreamableTransport({ ...options, sessionId, eventStore: options.eventStore });
      const server = mcpServer();
      transport.onclose = () => sessions.delete(sessionId);
      await server.connect(transport);
      session = { transport, server };
      sessions.set(sessionId, session);
    }
    await session.transport.handleRequest(req, res, body);
  };
  const http: NodeServer = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return {
    url,
    sessions,
    close: async () => {
      await Promise.all([...sessions.values()].map((s) => s.server.close()));
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    },
  };
}

async function connect(url: string, init?: RequestInit) {
  const getStream = signal<boolean>();
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: init,
    fetch: watchGetStream(getStream.resolve),
    reconnectionOptions: { initialReconnectionDelay: 10, maxReconnectionDelay: 50, reconnectionDelayGrowFactor: 1, maxRetries: 5 },
  });
  const client = new Client({ name: 'transport-test-client', version: '1' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
  await client.connect(transport);
  return { client, transport, getStream: getStream.promise };
}

async function rawSession(url: string): Promise<string> {
  const init = await post(url, initializeBody());
  const id = init.headers.get('mcp-session-id')!;
  await init.text();
  await (await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' })).text();
  return id;
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0].text;

describe('NodeStreamableTransport', () => {
  const servers: { close: () => Promise<void> }[] = [];
  const start = async (options?: Parameters<typeof serve>[0]) => {
    const s = await serve(options);
    servers.push(s);
    return s;
  };
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it('frames an SSE answer: priming event, request-related notifications, then the response, and ends the stream', async () => {
    const { url } = await start({ eventStore: new InMemoryEventStore() });
    const id = await rawSession(url);
    const response = await post(
      url,
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'progress', arguments: { tag: 't' }, _meta: { progressToken: 'p' } } },
      { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('mcp-session-id')).toBe(id);
    const raw = await response.text();
    const events = raw.split('\n\n').filter(Boolean);
    expect(events[0]).toMatch(/^id: \d+\ndata: $/);
    expect(events.slice(1).every((e) => /^event: message\nid: \d+\ndata: \{.*\}$/.test(e))).toBe(true);
    const messages = await messagesOf(new Response(raw, { headers: { 'content-type': 'text/event-stream' } }));
    expect(messages.map((m) => (m.method as string) ?? m.id)).toEqual(['notifications/progress', 'notifications/progress', 'notifications/progress', 5]);
    expect(messages[3]).toMatchObject({ result: { content: [{ text: 'done t' }] } });
  });

  it('answers a notification-only POST with 202 and no body; refuses malformed messages, batches over 100, and a second initialize', async () => {
    const { url } = await start();
    const id = await rawSession(url);
    const headers = { 'mcp-session-id': id };
    const accepted = await post(url, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, headers);
    expect(accepted.status).toBe(202);
    expect(await accepted.text()).toBe('');
    // -32600, with the request's id when it is usable (null for id 1.5).
    for (const bad of [
      { jsonrpc: '1.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 1.5, method: 'ping' },
      { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
      { jsonrpc: '2.0', id: 1, method: 'ping', params: [] },
    ]) {
      const r = await post(url, bad, headers);
      expect(r.status).toBe(400);
      expect(await r.json()).toMatchObject({ jsonrpc: '2.0', id: bad.id === 1 ? 1 : null, error: { code: -32600 } });
    }
    const tooMany = await post(
      url,
      Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })),
      headers,
    );
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ error: { code: -32600 } });
    const again = await post(url, initializeBody(9), headers);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: { code: -32600, message: expect.stringContaining('already initialized') } });
  });

  it('answers a batch on one stream (SSE) or as one JSON array (JSON mode), in request order', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'progress', arguments: { tag: 'slow', ms: 15 } } },
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
    ];
    const sse = await start();
    const sseAnswer = await post(sse.url, batch, { 'mcp-session-id': await rawSession(sse.url) });
    expect(sseAnswer.headers.get('content-type')).toBe('text/event-stream');
    expect((await messagesOf(sseAnswer)).map((m) => m.id).sort()).toEqual(['a', 'b']);

    const json = await start({ jsonResponse: true });
    const jsonAnswer = await post(json.url, batch, { 'mcp-session-id': await rawSession(json.url) });
    expect(jsonAnswer.headers.get('content-type')).toBe('application/json');
    expect(((await jsonAnswer.json()) as { id: string }[]).map((m) => m.id)).toEqual(['b', 'a']);
  });

  it('routes progress by relatedRequestId: concurrent calls on one session each get only their own', async () => {
    const { url } = await start({ eventStore: new InMemoryEventStore() });
    const { client } = await connect(url);
    const seen = await Promise.all(
      ['x', 'y', 'z'].map(async (tag) => {
        const progress: string[] = [];
        const result = await client.callTool({ name: 'progress', arguments: { tag, ms: 5 } }, undefined, { onprogress: (p) => progress.push(p.message!) });
        return { text: textOf(result), progress };
      }),
    );
    expect(seen).toEqual(['x', 'y', 'z'].map((tag) => ({ text: `done ${tag}`, progress: [tag, tag, tag] })));
    await client.close();
  });

  it('carries a server-to-client request (elicitation) on the calling request’s stream', async () => {
    const { url } = await start();
    const { client } = await connect(url);
    expect(textOf(await client.callTool({ name: 'ask', arguments: {} }))).toBe('hello Ada');
    await client.close();
  });

  it('gives handlers sessionId, request headers and authInfo', async () => {
    const { url } = await start();
    const { client, transport } = await connect(url, { headers: { 'x-tag': 'mine', authorization: 'Bearer alice' } });
    expect(JSON.parse(textOf(await client.callTool({ name: 'info', arguments: {} })))).toEqual({ sessionId: transport.sessionId, tag: 'mine', clientId: 'alice' });
    await client.close();
  });

  it('sends server-initiated notifications on the GET stream, allows only one, and DELETE ends the session', async () => {
    const s = await start({ eventStore: new InMemoryEventStore() });
    const { client, transport, getStream } = await connect(s.url);
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler((require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js')).ToolListChangedNotificationSchema, () => resolve()),
    );
    expect(await getStream).toBe(true); // the client opens its GET stream after initialize
    const second = await fetch(s.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': transport.sessionId! } });
    expect(second.status).toBe(409);
    await second.text();
    await s.sessions.get(transport.sessionId!)!.server.sendToolListChanged();
    await changed;
    await transport.terminateSession();
    expect(s.sessions.size).toBe(0);
    await client.close();
  });

  it('resumes after closeSSEStream: the SDK client reconnects with Last-Event-ID and gets the rest', async () => {
    const { url } = await start({ eventStore: new InMemoryEventStore(), retryMs: 10 });
    const { client } = await connect(url);
    const progress: number[] = [];
    const result = await client.callTool({ name: 'pause', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(textOf(result)).toBe('resumed (closeSSEStream given)');
    expect(progress).toEqual([1]);
    await client.close();
  });

  it('replays after Last-Event-ID on a raw GET; unknown ids get 400', async () => {
    const { url } = await start({ eventStore: new InMemoryEventStore(), retryMs: 500 });
    const id = await rawSession(url);
    const headers = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
    const call = await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'progress', arguments: { tag: 'r' }, _meta: { progressToken: 1 } } }, headers);
    const raw = await call.text();
    expect(raw).toMatch(/^id: \d+\nretry: 500\ndata: \n\n/);
    const ids = [...raw.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
    const resumed = await fetch(url, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': ids[1] } });
    expect(resumed.status).toBe(200);
    // The request was answered, so the replayed stream ends after the missed events.
    const replayed = await messagesOf(resumed);
    expect(replayed.map((m) => m.method ?? m.id)).toEqual(['notifications/progress', 'notifications/progress', 3]);
    const unknown = await fetch(url, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': '424242' } });
    expect(unknown.status).toBe(400);
    await unknown.text();
  });

  it('omits event ids and the priming event without an event store or for clients before 2025-11-25', async () => {
    const plain = await start();
    const a = await post(plain.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-session-id': await rawSession(plain.url) });
    expect(await a.text()).toBe('event: message\ndata: {"result":{},"jsonrpc":"2.0","id":1}\n\n');
    const stored = await start({ eventStore: new InMemoryEventStore() });
    const id = await rawSession(stored.url);
    const old = await post(stored.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' });
    expect(await old.text()).toMatch(/^event: message\nid: \d+\ndata: /);
  });

  it('ends the answer of a request the client cancelled (the SDK sends no response for it)', async () => {
    const { url } = await start({ eventStore: new InMemoryEventStore() });
    const id = await rawSession(url);
    const headers = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
    held = { started: signal(), release: signal() };
    const call = post(url, { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'hold', arguments: {} } }, headers);
    await held.started.promise;
    const cancel = await post(url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 11, reason: 'changed my mind' } }, headers);
    expect(cancel.status).toBe(202);
    // The answer ends while the tool still runs (it runs until released, below).
    const messages = await messagesOf(await call);
    expect(messages).toEqual([]);
    held.release.resolve();
  });

  it('still answers when the event store fails: the event goes out without an id', async () => {
    const store = new InMemoryEventStore();
    const failing = Object.assign(Object.create(store) as InMemoryEventStore, {
      storeEvent: async (streamId: string, message: Parameters<InMemoryEventStore['storeEvent']>[1]) => {
        if ('result' in message) throw new Error('disk full');
        return store.storeEvent(streamId, message);
      },
    });
    const errors: string[] = [];
    const s = await start({ eventStore: failing });
    const id = await rawSession(s.url);
    s.sessions.get(id)!.transport.onerror = (error) => errors.push(error.message);
    const answer = await post(s.url, { jsonrpc: '2.0', id: 4, method: 'ping' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' });
    expect(await answer.text()).toMatch(/^id: \d+\ndata: \n\nevent: message\ndata: \{"result":\{\},"jsonrpc":"2.0","id":4\}\n\n$/);
    expect(errors).toEqual([expect.stringContaining('disk full')]);
  });

  it('stateless: one transport per request, no session id, and a reused one refuses', async () => {
    const { url } = await start({ stateless: true });
    const init = await post(url, initializeBody());
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect((await messagesOf(init))[0]).toMatchObject({ id: 1, result: { serverInfo: { name: 'transport-test' } } });
    const { client } = await connect(url);
    expect(textOf(await client.callTool({ name: 'progress', arguments: { tag: 's' } }))).toBe('done s');
    await client.close();
    const transport = new NodeStreamableTransport();
    const fake = { method: 'GET', headers: { accept: ACCEPT_BOTH } } as unknown as IncomingMessage;
    const sink = { writeHead: () => sink, end: () => sink, once: () => sink, flushHeaders: () => undefined, destroyed: false } as unknown as ServerResponse;
    await transport.handleRequest(fake, sink);
    await expect(transport.handleRequest(fake, sink)).rejects.toThrow(/stateless transport serves one request/);
    await transport.close(); // its GET stream on the fake response would otherwise keep its keep-alive timer
  });
});

describe("createHttpHandler's transport choice", () => {
  it("keeps the SDK's transport behind httpTransport: 'sdk', with the same context and rules", async () => {
    const app = await createApp({ name: 'sdk-transport', version: '1.0.0', tools: [HttpTools] });
    for (const options of [{}, { stateless: true }, { jsonResponse: true }]) {
      const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, httpTransport: 'sdk', ...options });
      const { client, transport } = await connect(listener.url, { headers: { 'x-custom': 'sdk' } });
      const seen = JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: { value: 'v' } })));
      expect(seen).toMatchObject({ value: 'v', sessionId: transport.sessionId ?? null, custom: 'sdk' });
      if (!('stateless' in options)) {
        const again = await post(listener.url, initializeBody(2), { 'mcp-session-id': transport.sessionId! });
        expect(again.status).toBe(400);
        await again.text();
      }
      await client.close();
      await listener.close();
    }
  });
});
