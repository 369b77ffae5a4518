import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { HttpTools } from './fixtures/http.tools';
import { ACCEPT_BOTH, initializeBody } from './fixtures/httpHelpers';

/**
 * The node listener with the SDK's transport (`httpTransport: 'sdk'`): a POST whose batch holds
 * a request and its own `notifications/cancelled`. The SDK answers no cancelled request, and its
 * transport holds the POST until every request of it is answered, so the POST stayed open until
 * the client hung up, in all four modes (stateful and stateless, SSE and JSON responses). It now
 * ends as on the toolwright transport: an SSE stream that ends, or 202 with no body (JSON); the
 * other requests of the batch are still answered.
 */
const VERSION = '2025-11-25';

/** Status and body of a POST, or 'still open' if it has not ended within a few seconds (the defect). */
async function answerOf(response: Promise<Response>): Promise<{ status: number; body: string } | 'still open'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const open = new Promise<'still open'>((resolve) => (timer = setTimeout(() => resolve('still open'), 3000)));
  const answered = response.then(async (r) => ({ status: r.status, body: await r.text() }));
  try {
    return await Promise.race([answered, open]);
  } finally {
    clearTimeout(timer);
  }
}

const call = (id: string, ms: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: { ms } } });
const cancel = (id: string) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'changed my mind' } });

describe.each([
  { mode: 'stateful, SSE', stateless: false, json: false },
  { mode: 'stateful, JSON responses', stateless: false, json: true },
  { mode: 'stateless, SSE', stateless: true, json: false },
  { mode: 'stateless, JSON responses', stateless: true, json: true },
])("httpTransport 'sdk', $mode: a batch that cancels its own request", ({ stateless, json }) => {
  let app: App;
  let listener: HttpListener;
  let headers: Record<string, string> = {};
  const post = (body: unknown, signal?: AbortSignal) =>
    fetch(listener.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers }, body: JSON.stringify(body), signal });

  beforeAll(async () => {
    app = await createApp({ name: 'sdk-batch-cancel', version: '1.0.0', tools: [HttpTools] });
    listener = await app.listen({
      transport: 'http',
      port: 0,
      requestLogLevel: 'silent',
      exitOnSignal: false,
      httpTransport: 'sdk',
      // The slow tool goes on after its cancel: closing does not wait for it.
      drainTimeoutMs: 0,
      stateless,
      jsonResponse: json,
      sessions: { initializeRate: false },
    });
    if (stateless) return;
    const opened = await post(initializeBody(1, VERSION));
    await opened.text();
    headers = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': VERSION };
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  });
  afterAll(() => listener.close());

  it('ends the POST, with no answer for the cancelled request', async () => {
    const aborted = new AbortController();
    try {
      const answer = await answerOf(post([call('c1', 50), cancel('c1')], aborted.signal));
      expect(answer).not.toBe('still open');
      const { status, body } = answer as { status: number; body: string };
      expect(status).toBe(json ? 202 : 200);
      expect(body).not.toContain('"id":"c1"');
    } finally {
      aborted.abort();
    }
  });

  it('answers the other requests of the batch', async () => {
    const aborted = new AbortController();
    try {
      const answer = await answerOf(post([call('a1', 0), call('c2', 50), cancel('c2')], aborted.signal));
      expect(answer).not.toBe('still open');
      const { status, body } = answer as { status: number; body: string };
      expect(status).toBe(200);
      expect(body).toContain('"id":"a1"');
      expect(body).toContain('slept 0');
      expect(body).not.toContain('"id":"c2"');
    } finally {
      aborted.abort();
    }
  });

  it('a request named notifications/cancelled cancels nothing', async () => {
    // `whoami` runs through the SDK's server (it takes the call's context).
    const whoami = { jsonrpc: '2.0', id: 'c3', method: 'tools/call', params: { name: 'whoami', arguments: { value: 'still answered' } } };
    const named = { jsonrpc: '2.0', id: 'x1', method: 'notifications/cancelled', params: { requestId: 'c3' } };
    const answer = await answerOf(post([whoami, named]));
    expect(answer).not.toBe('still open');
    const { status, body } = answer as { status: number; body: string };
    expect(status).toBe(200);
    expect(body).toContain('still answered');
    expect(body).toContain('"id":"x1"');
  });

  if (!stateless) {
    it('ends a POST whose request a later POST cancels', async () => {
      const aborted = new AbortController();
      try {
        const first = answerOf(post(call('c4', 5000), aborted.signal));
        await new Promise((resolve) => setTimeout(resolve, 100));
        const cancelled = await answerOf(post(cancel('c4')));
        expect(cancelled).toMatchObject({ status: 202 });
        const answer = await first;
        expect(answer).not.toBe('still open');
        expect((answer as { status: number }).status).toBe(json ? 202 : 200);
        expect((answer as { body: string }).body).not.toContain('"id":"c4"');
      } finally {
        aborted.abort();
      }
    });
  }

  it('keeps serving', async () => {
    const answer = await answerOf(post(call('n1', 0)));
    expect(answer).toEqual({ status: 200, body: expect.stringContaining('slept 0') });
  });
});
