import fc from 'fast-check';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { ERAS } from './fixtures/eras';
import { frame, LEAKS } from './fixtures/hostileFrames';
import { HttpTools } from './fixtures/http.tools';
import { ACCEPT_BOTH, messagesOf, openRawSession } from './fixtures/httpHelpers';

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const MODES = [
  { name: 'stateful SSE', options: {} },
  { name: 'stateful JSON', options: { jsonResponse: true } },
  { name: 'stateless', options: { stateless: true } },
] as const;

/** Headers a client may get right or wrong. */
const headers = fc.record({
  accept: fc.constantFrom(ACCEPT_BOTH, 'application/json', 'text/event-stream', 'application/json;q=0, text/event-stream', '*/*', undefined),
  contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/jsonx', undefined),
  session: fc.constantFrom('valid', 'valid', 'valid', 'bogus', 'absent'),
  version: fc.constantFrom('era', 'era', '2024-11-05', '1999-01-01', 'absent'),
});

describe.each(ERAS)('HTTP under arbitrary requests ($name): one answer per request, nothing leaked, still serving', (era) => {
  let app: App;
  const listeners: HttpListener[] = [];
  beforeAll(async () => {
    app = await createApp({ name: 'fuzz', version: '1.0.0', tools: [HttpTools] });
  });
  afterAll(() => Promise.all(listeners.map((l) => l.close())));

  it.each(MODES)('$name', async (mode) => {
    const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, ...mode.options });
    listeners.push(listener);
    const stateless = 'stateless' in mode.options;
    const session = stateless ? undefined : await openRawSession(listener.url);
    let next = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 3 }), fc.boolean(), headers, async (makers, batch, h) => {
        const sent = makers.map((make) => make(next++));
        const body = batch && sent.length > 1 ? `[${sent.map((f) => f.text).join(',')}]` : sent[0].text;
        const request: Record<string, string> = {};
        if (h.accept) request.accept = h.accept;
        if (h.contentType) request['content-type'] = h.contentType;
        if (h.session === 'valid' && session) request['mcp-session-id'] = session;
        if (h.session === 'bogus') request['mcp-session-id'] = 'no-such-session';
        if (h.version !== 'absent') request['mcp-protocol-version'] = h.version === 'era' ? era.version : h.version;
        const response = await fetch(listener.url, { method: 'POST', headers: request, body, signal: AbortSignal.timeout(5000) });
        const text = await response.clone().text();
        for (const leak of LEAKS) expect(text).not.toMatch(leak);
        expect(response.status).toBeLessThan(500);
        const tracked = (batch && sent.length > 1 ? sent : sent.slice(0, 1)).filter((f) => f.id !== undefined);
        if (response.status === 200) {
          const answers = (await messagesOf(response)).filter((m) => 'result' in m || 'error' in m);
          // Every request with a usable id is answered exactly once (a cancelled one would be the exception; none is sent here).
          for (const f of tracked) expect([f.id, answers.filter((a) => a.id === f.id).length]).toEqual([f.id, 1]);
        } else if (response.status !== 202) {
          // A refusal answers the whole POST with one JSON-RPC error.
          expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } });
        }
      }),
      { numRuns: RUNS, timeout: 6_000, endOnFailure: true },
    );
    // Still serving, and the session still works.
    const ping = await fetch(listener.url, {
      method: 'POST',
      headers: { accept: ACCEPT_BOTH, 'content-type': 'application/json', ...(session && { 'mcp-session-id': session, 'mcp-protocol-version': era.version }) },
      body: JSON.stringify(era.request({ jsonrpc: '2.0', id: 'alive', method: 'ping' })),
    });
    expect(ping.status).toBe(200);
    expect(await messagesOf(ping)).toEqual([{ jsonrpc: '2.0', id: 'alive', result: {} }]);
  }, 90_000);
});
