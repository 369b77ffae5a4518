import { createApp, type App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import type { HttpListener } from '@toolwright/server/http';
import { HttpTools } from './fixtures/http.tools';
import { ACCEPT_BOTH, initializeBody } from './fixtures/httpHelpers';

/**
 * A 2025-11-25 POST whose batch holds a request and its own cancellation: the SDK answers no
 * cancelled request, so the POST ends with what there is (an SSE stream with no answer; 202
 * in JSON mode) instead of staying open until the client hangs up, and the session keeps no
 * trace of the request (a later request may reuse its id). The node listener did so; the
 * fetch handler saw only cancellations of requests of earlier POSTs.
 */
const VERSION = '2025-11-25';
type Send = (method: string, body: unknown, headers?: Record<string, string>) => Promise<Response>;

/** The body of `response`, or 'still open' if it has not ended within a few seconds (the defect). */
async function bodyOf(response: Response): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const open = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still open'), 5000)));
  try {
    return await Promise.race([response.text(), open]);
  } finally {
    clearTimeout(timer);
  }
}

async function open(send: Send): Promise<Record<string, string>> {
  const response = await send('POST', initializeBody(1, VERSION));
  await response.text();
  const headers = { 'mcp-session-id': response.headers.get('mcp-session-id')!, 'mcp-protocol-version': VERSION };
  await (await send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
  return headers;
}

async function expectBatchCancelEnds(send: Send, json: boolean): Promise<void> {
  const headers = await open(send);
  for (let round = 0; round < 2; round++) {
    const batch = [
      { jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'slow', arguments: { ms: 50 } } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'changed my mind' } },
    ];
    const response = await send('POST', batch, headers);
    const body = await bodyOf(response);
    expect(body).not.toBe('still open');
    if (json) expect(response.status).toBe(202);
    else expect(response.status).toBe(200);
    expect(body).not.toContain('"id":"c1"');
  }
  // The id is free again: a request with it is answered.
  const again = await send('POST', { jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'slow', arguments: { ms: 0 } } }, headers);
  const text = await bodyOf(again);
  expect(again.status).toBe(200);
  expect(text).toContain('slept 0');
}

describe('a batch that cancels its own request ends its POST', () => {
  let app: App;
  const listeners: HttpListener[] = [];
  const handlers: FetchHandler[] = [];
  beforeAll(async () => {
    app = await createApp({ name: 'batch-cancel', version: '1.0.0', tools: [HttpTools] });
  });
  afterAll(async () => {
    await Promise.all(listeners.map((l) => l.close()));
    await Promise.all(handlers.map((h) => h.close()));
  });

  for (const json of [false, true]) {
    const mode = json ? 'JSON responses' : 'SSE';
    it(`node listener, ${mode}`, async () => {
      const l = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, jsonResponse: json, sessions: { initializeRate: false } });
      listeners.push(l);
      const send: Send = (method, body, headers = {}) => fetch(l.url, { method, headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers }, body: JSON.stringify(body) });
      await expectBatchCancelEnds(send, json);
    });

    it(`fetch handler, ${mode}`, async () => {
      const handler = createFetchHandler(app, { logError: () => {}, jsonResponse: json, sessions: { initializeRate: false } });
      handlers.push(handler);
      const send: Send = (method, body, headers = {}) =>
        handler(new Request('http://localhost/mcp', { method, headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers }, body: JSON.stringify(body) }));
      await expectBatchCancelEnds(send, json);
    });
  }
});
