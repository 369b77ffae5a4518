import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { AskTools } from './fixtures/ask.tools';
import { ERAS } from './fixtures/eras';
import { STDIO_SERVER } from './fixtures/rawStdio';

/** A client with the sampling capability whose answers the test controls. */
function samplingClient() {
  const client = new Client({ name: 'sampler', version: '1' }, { capabilities: { sampling: {} } });
  const asked: { id: unknown; answer: (text: string) => void }[] = [];
  const waiters: (() => void)[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, (_request, extra) =>
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

// Only stateful SSE sessions carry the server's requests to the client: JSON responses and stateless requests have no stream for them.
const HTTP_MODES = [{ name: 'stateful SSE', options: {} }] as const;

describe.each(ERAS)('calls that wait on the client ($name)', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'asker', version: '1.0.0', tools: [AskTools] });
  });

  describe.each(HTTP_MODES)('over HTTP, $name', (mode) => {
    let listener: HttpListener | undefined;
    afterEach(() => listener?.close());
    const start = async (drainTimeoutMs: number) => {
      listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, drainTimeoutMs, ...mode.options });
      const { client, nextAsk } = samplingClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
      return { client, nextAsk, url: listener.url };
    };

    it('shutdown still accepts the client answer, so the call finishes; new requests get 503', async () => {
      const { client, nextAsk, url } = await start(10_000);
      const call = client.callTool({ name: 'ask', arguments: {} });
      const ask = await nextAsk(1);
      const closed = listener!.close();
      await new Promise((r) => setTimeout(r, 50));
      const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      expect(refused.status).toBe(503);
      ask.answer('still here');
      expect(await call).toMatchObject({ content: [{ type: 'text', text: 'the client said: still here' }] });
      await closed;
    });

    it('a call that cannot finish within the drain gets an error response', async () => {
      const { client, nextAsk } = await start(300);
      const call = client.callTool({ name: 'ask', arguments: {} });
      await nextAsk(1);
      const outcome = call.then(
        () => 'answered',
        (error: Error) => error.message,
      );
      await listener!.close();
      expect(await outcome).toContain('did not finish within the drain timeout (300 ms)');
    });
  });

  it.each([
    ['HTTP', async (): Promise<[Transport, () => Promise<void>]> => {
      const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
      return [new StreamableHTTPClientTransport(new URL(listener.url)), () => listener.close()];
    }],
    ['stdio', async (): Promise<[Transport, () => Promise<void>]> => [new StdioClientTransport({ command: process.execPath, args: [STDIO_SERVER], stderr: 'ignore' }), async () => undefined]],
  ])('over %s, cancelling the call cancels the sampling request the server made for it', async (_, open) => {
    const [transport, stop] = await open();
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
      // Give the HTTP client time to open its GET stream, where the server's cancellation goes.
      await new Promise((r) => setTimeout(r, 100));
      const controller = new AbortController();
      const call = client.callTool({ name: 'ask', arguments: {} }, undefined, { signal: controller.signal }).catch(() => 'aborted');
      const ask = await nextAsk(1);
      controller.abort();
      expect(await call).toBe('aborted');
      for (let waited = 0; waited < 3000 && cancelled.length === 0; waited += 20) await new Promise((r) => setTimeout(r, 20));
      expect(cancelled).toEqual([ask.id]);
    } finally {
      await client.close();
      await stop();
    }
  });
});
