import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { HttpTools, nextSlowCall } from './fixtures/http.tools';
import { connectClient, initializeBody, messagesOf, openRawSession, post, shutdownBegun, textOf } from './fixtures/httpHelpers';
import { waitFor } from './fixtures/waitFor';

const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };
const listRequest = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Streamable HTTP sessions: limits, expiry, shutdown', () => {
  let app: App;
  const listeners: HttpListener[] = [];
  const listen = async (options: Record<string, unknown> = {}) => {
    const l = await app.listen({ transport: 'http', port: 0, ...quiet, ...options });
    listeners.push(l);
    return l;
  };

  beforeAll(async () => {
    app = await createApp({ name: 'sessions', version: '1.0.0', tools: [HttpTools] });
  });
  afterAll(() => Promise.all(listeners.map((l) => l.close())));

  it('gives every session a distinct random id of visible ASCII', async () => {
    const l = await listen();
    const ids = await Promise.all(Array.from({ length: 20 }, () => openRawSession(l.url)));
    expect(new Set(ids).size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[\x21-\x7e]{32,}$/);
    expect(l.sessionCount).toBe(20);
  });

  it('closes a session idle for longer than the timeout: its id then gets 404', async () => {
    // A timeout far above the few milliseconds between the busy session's requests, so a loaded
    // machine (CI runs two test files at once) does not let the busy one idle out too.
    const l = await listen({ sessions: { idleTimeoutMs: 500 } });
    const idle = await openRawSession(l.url);
    const busy = await openRawSession(l.url);
    // The busy session is used all along, the idle one not at all, until the server has closed one of them.
    let i = 0;
    await waitFor(async () => {
      const r = await post(l.url, listRequest(i++), { 'mcp-session-id': busy });
      expect(r.status).toBe(200);
      await r.text();
      return l.sessionCount === 1;
    }, 'a session to expire');
    const expired = await post(l.url, listRequest(9), { 'mcp-session-id': idle });
    expect(expired.status).toBe(404);
    expect(l.sessionCount).toBe(1);
  });

  it('evicts the longest-idle session when the maximum is reached', async () => {
    const l = await listen({ sessions: { maxSessions: 2 } });
    const first = await openRawSession(l.url);
    const second = await openRawSession(l.url);
    await (await post(l.url, listRequest(1), { 'mcp-session-id': first })).text(); // first is now the most recent
    const third = await openRawSession(l.url);
    expect(l.sessionCount).toBe(2);
    expect((await post(l.url, listRequest(2), { 'mcp-session-id': second })).status).toBe(404);
    for (const id of [first, third]) {
      const r = await post(l.url, listRequest(3), { 'mcp-session-id': id });
      expect(r.status).toBe(200);
      await r.text();
    }
  });

  it('keeps a session with an open GET stream alive past the idle timeout', async () => {
    // Far above the gap between the client's initialize and its next message on a loaded machine.
    const l = await listen({ sessions: { idleTimeoutMs: 500 } });
    const { client, transport, getStream } = await connectClient(l.url);
    expect(await getStream).toBe(true);
    // A session opened later, with no stream, expires: the client's session has then been idle longer.
    await openRawSession(l.url);
    expect(l.sessionCount).toBe(2);
    await waitFor(() => l.sessionCount === 1, 'the session without a stream to expire');
    expect(textOf(await client.callTool({ name: 'slow', arguments: { ms: 0 } }))).toBe('slept 0');
    expect(transport.sessionId).toBeDefined();
    await client.close();
  });

  it('shutdown: new requests get 503 and readiness fails while running calls finish; then all sessions are closed', async () => {
    const l = await app.listen({ transport: 'http', port: 0, ...quiet });
    const { client } = await connectClient(l.url);
    const other = await openRawSession(l.url);
    const started = nextSlowCall();
    const running = client.callTool({ name: 'slow', arguments: { ms: 300 } });
    await started;
    const closed = l.close();
    const base = l.url.replace('/mcp', '');
    await shutdownBegun(l.url);
    const refused = await post(l.url, initializeBody()).catch(() => undefined);
    if (refused) expect(refused.status).toBe(503);
    const ready = await fetch(`${base}/readyz`).catch(() => undefined);
    if (ready) expect(ready.status).toBe(503);
    expect(textOf(await running)).toBe('slept 300');
    await closed;
    expect(l.sessionCount).toBe(0);
    await expect(post(l.url, listRequest(1), { 'mcp-session-id': other })).rejects.toThrow();
    await client.close().catch(() => undefined);
  });

  it('opening and abandoning 1,000 sessions (evicted at 100) leaves the heap near where it started', async () => {
    const l = await listen({ sessions: { maxSessions: 100, initializeRate: false } });
    const gc = (globalThis as { gc?: () => void }).gc;
    const settle = async () => {
      for (let i = 0; i < 3; i++) {
        gc?.();
        await sleep(20);
      }
      return process.memoryUsage().heapUsed;
    };
    for (let i = 0; i < 50; i++) await openRawSession(l.url); // warm up
    const before = await settle();
    // 1,000 sessions for the heap bound; without gc only the eviction is checked, which 300 show.
    for (let batch = 0, batches = gc ? 10 : 3; batch < batches; batch++) {
      await Promise.all(Array.from({ length: 100 }, () => post(l.url, initializeBody()).then((r) => r.text())));
    }
    expect(l.sessionCount).toBe(100);
    const after = await settle();
    // Without --expose-gc the numbers are noisy; the bound only has to catch a per-session leak (~50+ KB each).
    if (gc) expect(after - before).toBeLessThan(20 * 1024 * 1024);
    expect(l.sessionCount).toBeLessThanOrEqual(100);
  }, 90_000); // 1,050 sessions: seconds on a quiet machine, far more beside other work
});

describe('Streamable HTTP resumability', () => {
  it('replays missed events after Last-Event-ID, and refuses an unknown id', async () => {
    const app = await createApp({ name: 'resume', version: '1.0.0', tools: [HttpTools] });
    const l = await app.listen({ transport: 'http', port: 0, ...quiet });
    const id = await openRawSession(l.url);
    const headers = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
    const call = await post(l.url, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow', arguments: { ms: 1 } } }, headers);
    const raw = await call.text();
    const eventIds = [...raw.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
    expect(eventIds.length).toBe(2); // the priming event, then the response
    const resumed = await fetch(l.url, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': eventIds[0] } });
    expect(resumed.status).toBe(200);
    const reader = resumed.body!.getReader();
    let text = '';
    while (!text.includes('slept 1')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain(`id: ${eventIds[1]}`);
    await reader.cancel();
    const unknown = await fetch(l.url, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': '999999' } });
    expect(unknown.status).toBe(400);
    await unknown.text();
    await l.close();
  });

  it('can be turned off: no event ids on the stream', async () => {
    const app = await createApp({ name: 'resume-off', version: '1.0.0', tools: [HttpTools] });
    const l = await app.listen({ transport: 'http', port: 0, ...quiet, eventStore: false });
    const id = await openRawSession(l.url);
    const call = await post(l.url, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow', arguments: { ms: 1 } } }, { 'mcp-session-id': id });
    const messages = await messagesOf(call.clone());
    expect(messages[0]).toMatchObject({ id: 7, result: { content: [{ text: 'slept 1' }] } });
    expect(await call.text()).not.toMatch(/^id: /m);
    await l.close();
  });
});
