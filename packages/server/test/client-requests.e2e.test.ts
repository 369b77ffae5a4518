import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { AskTools } from './fixtures/ask.tools';
import { ERAS, type Era } from './fixtures/eras';
import { HttpTools, nextSlowCall } from './fixtures/http.tools';
import { messagesOf, post, shutdownBegun, watchGetStream } from './fixtures/httpHelpers';
import { STDIO_SERVER } from './fixtures/rawStdio';
import { signal, waitFor } from './fixtures/waitFor';

/** A client with the sampling capability whose answers the test controls. */
function samplingClient() {
  const client = new Client({ name: 'sampler', version: '1' }, { capabilities: { sampling: {} } });
  const asked: { id: unknown; answer: (text: string) => void }[] = [];
  const waiters: (() => void)[] = [];
  client.setRequestHandler(
    CreateMessageRequestSchema,
    (_request, extra) =>
      new Promise((resolve) => {
        asked.push({ id: extra.requestId, answer: (text) => resolve({ role: 'assistant', content: { type: 'text', text }, model: 'test' }) });
        for (const wake of waiters.splice(0)) wake();
      }),
  );
  const nextAsk = async (n: number) => {
    while (asked.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    return asked[n - 1];
  };
  return { client, nextAsk };
}

type StartAsking = (drainTimeoutMs: number) => Promise<ReturnType<typeof samplingClient>>;

/**
 * A call waiting on the client's answer while the listener shuts down (drain 10 s): once shutdown
 * has begun, `refused` checks that a new request is turned away; the answer still reaches the call.
 */
async function answeredDuringShutdown(start: StartAsking, listener: () => HttpListener, refused: (client: Client) => Promise<void>) {
  const { client, nextAsk } = await start(10_000);
  const call = client.callTool({ name: 'ask', arguments: {} });
  const ask = await nextAsk(1);
  const closed = listener().close();
  await shutdownBegun(listener().url);
  await refused(client);
  ask.answer('still here');
  expect(await call).toMatchObject({ content: [{ type: 'text', text: 'the client said: still here' }] });
  await closed;
}

/** A call still waiting on the client when the drain timeout (300 ms) ends gets an error response. */
async function drainTimeoutAnswered(start: StartAsking, listener: () => HttpListener) {
  const { client, nextAsk } = await start(300);
  const call = client.callTool({ name: 'ask', arguments: {} });
  await nextAsk(1);
  const outcome = call.then(
    () => 'answered',
    (error: Error) => error.message,
  );
  await listener().close();
  expect(await outcome).toContain(DRAIN_MESSAGE);
}

// Only stateful SSE sessions carry the server's requests to the client: JSON responses and stateless requests have no stream for them.
const HTTP_MODES = [
  { name: 'stateful SSE', options: {} },
  { name: "stateful SSE, the SDK's transport", options: { httpTransport: 'sdk' } },
] as const;
/** Every mode, for calls that run long without asking the client anything. */
const ALL_MODES = [
  ...HTTP_MODES,
  { name: 'stateful JSON', options: { jsonResponse: true } },
  { name: 'stateless', options: { stateless: true } },
  { name: 'stateless JSON', options: { stateless: true, jsonResponse: true } },
] as const;
const DRAIN_MESSAGE = 'did not finish within the drain timeout (300 ms)';
const quiet = { logLevel: 'silent' as const, exitOnSignal: false };

/** A 2026-07-28 request over raw HTTP, with its envelope and headers. */
function modernPost(url: string, era: Era, message: Record<string, unknown>) {
  const request = era.request(message);
  return post(url, request, era.headers(request));
}

describe.each(ERAS.filter((era) => era.modern))('shutdown in the 2026-07-28 era ($name): no server-to-client requests, every call still answered', (era) => {
  let app: App;
  let listener: HttpListener | undefined;
  beforeAll(async () => {
    app = await createApp({ name: 'asker', version: '1.0.0', tools: [AskTools, HttpTools] });
  });
  afterEach(() => listener?.close());

  it.each(ALL_MODES)('$name: a call still running at the drain timeout gets an error response with its id', async (mode) => {
    listener = await app.listen({ transport: 'http', port: 0, ...quiet, drainTimeoutMs: 300, ...mode.options });
    const started = nextSlowCall();
    const call = modernPost(listener.url, era, { jsonrpc: '2.0', id: 'stuck', method: 'tools/call', params: { name: 'slow', arguments: { ms: 3000 } } });
    await started;
    await listener.close();
    const response = await call;
    expect(response.status).toBe(200);
    expect(await messagesOf(response)).toEqual([{ jsonrpc: '2.0', id: 'stuck', error: { code: -32000, message: expect.stringContaining(DRAIN_MESSAGE) } }]);
  });

  it('a call that finishes within the drain is answered; new requests get 503', async () => {
    listener = await app.listen({ transport: 'http', port: 0, ...quiet, drainTimeoutMs: 10_000 });
    const started = nextSlowCall();
    const call = modernPost(listener.url, era, { jsonrpc: '2.0', id: 'call', method: 'tools/call', params: { name: 'slow', arguments: { ms: 500 } } });
    await started;
    const closed = listener.close();
    await shutdownBegun(listener.url);
    const refused = await modernPost(listener.url, era, { jsonrpc: '2.0', id: 'late', method: 'tools/list' });
    expect(refused.status).toBe(503);
    expect(await messagesOf(await call)).toEqual([expect.objectContaining({ id: 'call', result: expect.objectContaining({ content: [{ type: 'text', text: 'slept 500' }] }) })]);
    await closed;
  });

  it("while draining, the client's retry carrying its input responses is still served (it answers the server's input request)", async () => {
    listener = await app.listen({ transport: 'http', port: 0, ...quiet, drainTimeoutMs: 10_000 });
    // Keeps the drain open meanwhile.
    const running = modernPost(listener.url, era, { jsonrpc: '2.0', id: 'running', method: 'tools/call', params: { name: 'slow', arguments: { ms: 800 } } });
    const first = await modernPost(listener.url, era, { jsonrpc: '2.0', id: 'r1', method: 'tools/call', params: { name: 'ask', arguments: {} } });
    const round = (await first.json()) as { result: { resultType: string; inputRequests: Record<string, unknown>; requestState: string } };
    expect(round.result.resultType).toBe('input_required');
    const closed = listener.close();
    await shutdownBegun(listener.url);
    const [key] = Object.keys(round.result.inputRequests);
    const retry = await modernPost(listener.url, era, {
      jsonrpc: '2.0',
      id: 'r2',
      method: 'tools/call',
      params: { name: 'ask', arguments: {}, inputResponses: { [key]: { role: 'assistant', content: { type: 'text', text: 'late but here' }, model: 'm' } }, requestState: round.result.requestState },
    });
    expect(retry.status).toBe(200);
    expect(await messagesOf(retry)).toEqual([expect.objectContaining({ id: 'r2', result: expect.objectContaining({ content: [{ type: 'text', text: 'the client said: late but here' }] }) })]);
    await (await running).text();
    await closed;
  });

  it('a subscriptions/listen stream does not hold shutdown for the drain timeout', async () => {
    // Were the open stream to hold shutdown, close() would wait out this drain timeout, and the test time out first.
    listener = await app.listen({ transport: 'http', port: 0, ...quiet, drainTimeoutMs: 10 * 60_000 });
    const stream = await modernPost(listener.url, era, { jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } });
    expect(stream.status).toBe(200);
    await listener.close();
    listener = undefined;
    await stream.text().catch(() => undefined);
  });
});

describe.each(ERAS.filter((era) => !era.modern))('calls that wait on the client ($name)', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'asker', version: '1.0.0', tools: [AskTools, HttpTools] });
  });

  describe.each(ALL_MODES)('over HTTP, $name: a long call', (mode) => {
    it('still running at the drain timeout gets an error response', async () => {
      const listener = await app.listen({ transport: 'http', port: 0, ...quiet, drainTimeoutMs: 300, ...mode.options });
      const client = new Client({ name: 'caller', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
      const started = nextSlowCall();
      const outcome = client.callTool({ name: 'slow', arguments: { ms: 3000 } }).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      await started;
      await listener.close();
      expect(await outcome).toContain(DRAIN_MESSAGE);
      await client.close();
    });
  });

  describe('over the legacy HTTP+SSE transport (legacySse)', () => {
    let listener: HttpListener | undefined;
    let opened: Client | undefined;
    afterEach(() => Promise.all([listener?.close(), opened?.close()]));
    const start = async (drainTimeoutMs: number) => {
      listener = await app.listen({ transport: 'http', port: 0, ...quiet, drainTimeoutMs, legacySse: true });
      const { client, nextAsk } = samplingClient();
      opened = client;
      await client.connect(new SSEClientTransport(new URL(listener.url.replace(/\/mcp$/, '/sse'))));
      return { client, nextAsk };
    };

    it('shutdown waits for the call and still accepts the client answer; new requests get 503', () =>
      answeredDuringShutdown(
        start,
        () => listener!,
        async (client) => {
          await expect(client.callTool({ name: 'slow', arguments: { ms: 1 } })).rejects.toThrow(/503|shutting down/);
        },
      ));

    it('a call that cannot finish within the drain gets an error response', () => drainTimeoutAnswered(start, () => listener!));
  });

  describe.each(HTTP_MODES)('over HTTP, $name', (mode) => {
    let listener: HttpListener | undefined;
    afterEach(() => listener?.close());
    const start = async (drainTimeoutMs: number) => {
      listener = await app.listen({ transport: 'http', port: 0, ...quiet, drainTimeoutMs, ...mode.options });
      const { client, nextAsk } = samplingClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
      return { client, nextAsk };
    };

    it('shutdown still accepts the client answer, so the call finishes; new requests get 503', () =>
      answeredDuringShutdown(
        start,
        () => listener!,
        async () => {
          const refused = await fetch(listener!.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
          });
          expect(refused.status).toBe(503);
        },
      ));

    it('a call that cannot finish within the drain gets an error response', () => drainTimeoutAnswered(start, () => listener!));
  });

  it.each([
    [
      'HTTP',
      async (): Promise<[Transport, () => Promise<void>, Promise<unknown>]> => {
        const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
        const getStream = signal<boolean>();
        return [new StreamableHTTPClientTransport(new URL(listener.url), { fetch: watchGetStream(getStream.resolve) }), () => listener.close(), getStream.promise];
      },
    ],
    [
      'stdio',
      async (): Promise<[Transport, () => Promise<void>, Promise<unknown>]> => [
        new StdioClientTransport({ command: process.execPath, args: [STDIO_SERVER], stderr: 'ignore' }),
        async () => undefined,
        Promise.resolve(),
      ],
    ],
  ])('over %s, cancelling the call cancels the sampling request the server made for it', async (_, open) => {
    const [transport, stop, ready] = await open();
    const { client, nextAsk } = samplingClient();
    try {
      await client.connect(transport);
      // Watched on the wire: the SDK v1 client ignores a cancellation of request id 0 (a falsy check), the id of the server's first request.
      const cancelled: unknown[] = [];
      const deliver = transport.onmessage!;
      transport.onmessage = (message, extra) => {
        if ('method' in message && message.method === 'notifications/cancelled') cancelled.push(message.params?.requestId);
        deliver(message, extra);
      };
      // The HTTP client opens its GET stream, where the server's cancellation goes.
      await ready;
      const controller = new AbortController();
      const call = client.callTool({ name: 'ask', arguments: {} }, undefined, { signal: controller.signal }).catch(() => 'aborted');
      const ask = await nextAsk(1);
      controller.abort();
      expect(await call).toBe('aborted');
      await waitFor(() => cancelled.length > 0, "the server's cancellation");
      expect(cancelled).toEqual([ask.id]);
    } finally {
      await client.close();
      await stop();
    }
  });
});
