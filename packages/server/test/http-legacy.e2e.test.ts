import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { createApp } from '@toolwright/server';
import { HttpTools } from './fixtures/http.tools';
import { connectClient, textOf } from './fixtures/httpHelpers';
import { openLegacySseSession } from './fixtures/openLegacySseSession';

describe('the legacy HTTP+SSE transport (2024-11-05 clients), behind an option', () => {
  it('serves GET /sse + POST /messages next to Streamable HTTP, with the same Host/Origin checks', async () => {
    const app = await createApp({ name: 'legacy', version: '1.0.0', tools: [HttpTools] });
    const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, legacySse: true });
    const base = listener.url.replace(/\/mcp$/, '');

    const legacy = new Client({ name: 'old-client', version: '1' });
    await legacy.connect(new SSEClientTransport(new URL(`${base}/sse`)));
    expect(textOf(await legacy.callTool({ name: 'slow', arguments: { ms: 1 } }))).toBe('slept 1');

    const { client: modern } = await connectClient(listener.url);
    expect(textOf(await modern.callTool({ name: 'slow', arguments: { ms: 2 } }))).toBe('slept 2');

    expect((await fetch(`${base}/sse`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    const unknown = await fetch(`${base}/messages?sessionId=nope`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unknown.status).toBe(404);

    await Promise.all([legacy.close(), modern.close()]);
    await listener.close();
  });

  it('refuses a POST whose request reuses the id of one still running (400, -32600), and answers the running one', async () => {
    const app = await createApp({ name: 'legacy-ids', version: '1.0.0', tools: [HttpTools] });
    const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, legacySse: true });
    const session = await openLegacySseSession(listener.url, '2024-11-05');
    const call = JSON.stringify({ jsonrpc: '2.0', id: 'twice', method: 'tools/call', params: { name: 'slow', arguments: { ms: 1500 } } });
    expect((await session.send(call)).status).toBe(202);
    const second = await session.send(call);
    expect(second.status).toBe(400);
    expect(await second.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('request id "twice" is already used') } });
    expect(JSON.parse(await session.nextData((data) => data.includes('"id":"twice"')))).toMatchObject({ result: { content: [{ text: 'slept 1500' }] } });
    await session.close();
    await listener.close();
  });

  it('is off by default', async () => {
    const app = await createApp({ name: 'legacy-off', version: '1.0.0', tools: [HttpTools] });
    const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    expect((await fetch(listener.url.replace(/\/mcp$/, '/sse'))).status).toBe(404);
    await listener.close();
  });

  it("holds each caller to its share of streams (its own oldest ends, never another's), refuses past the total, and limits the rate", async () => {
    const app = await createApp({ name: 'legacy-limits', version: '1.0.0', tools: [HttpTools] });
    const listener = await app.listen({
      transport: 'http',
      port: 0,
      requestLogLevel: 'silent',
      exitOnSignal: false,
      legacySse: true,
      sessions: { maxSessions: 3, maxSessionsPerPrincipal: 2, initializeRate: { burst: 4, perMinute: 1 }, clientAddressOf: (req) => req.headers['x-client'] as string | undefined },
    });
    const base = listener.url.replace(/\/mcp$/, '');
    const open = async (client: string) => {
      const response = await fetch(`${base}/sse`, { headers: { accept: 'text/event-stream', 'x-client': client } });
      if (response.status !== 200) return { status: response.status, ended: Promise.resolve(true) };
      const reader = response.body!.getReader();
      await reader.read(); // the endpoint event
      const ended = (async () => {
        for (;;) if ((await reader.read()).done) return true;
      })();
      return { status: 200, ended, stop: () => reader.cancel() };
    };
    const other = await open('10.0.0.1');
    const first = await open('10.0.0.2');
    await open('10.0.0.2');
    const third = await open('10.0.0.2'); // past its share of 2: its own first stream ends
    expect(third.status).toBe(200);
    expect(await first.ended).toBe(true);
    const otherState = await Promise.race([other.ended, new Promise((resolve) => setImmediate(resolve, 'open'))]);
    expect(otherState).toBe('open');
    // Three streams are open: the total refuses a fourth, whoever asks.
    expect((await open('10.0.0.3')).status).toBe(503);
    // 10.0.0.2 has used its burst of 4 (three streams and nothing since refill); one more is too fast.
    await open('10.0.0.2');
    expect((await open('10.0.0.2')).status).toBe(429);
    await listener.close();
  });
});
