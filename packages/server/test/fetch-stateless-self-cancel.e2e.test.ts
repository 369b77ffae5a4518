import type { App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { ACCEPT_BOTH } from './fixtures/httpHelpers';

/**
 * A stateless POST through the fetch handler whose batch holds a request and its own
 * cancellation: the SDK answers nothing for the cancelled request, so the POST stayed open for
 * good (JSON responses: the handler's promise never settled, holding its server and transport
 * until shutdown; SSE: the stream never ended). It now ends as the node listener's and the fetch
 * handler's sessions end it: 202 with no body (JSON), or a stream that ends.
 */
const { createErasApp } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App> };

const handlers: FetchHandler[] = [];
afterAll(() => Promise.all(handlers.map((handler) => handler.close({ drainTimeoutMs: 100 }))));

/** Resolves with `promise`, or rejects once `ms` passed: a POST that is never answered fails the test instead of holding it. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const batch = (method: string, params: object) =>
  JSON.stringify([
    { jsonrpc: '2.0', id: 7, method, params },
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'changed my mind' } },
  ]);

describe.each([
  { mode: 'JSON responses', jsonResponse: true },
  { mode: 'SSE', jsonResponse: false },
])('fetch handler, stateless, $mode: a batch that cancels its own request', ({ jsonResponse }) => {
  it.each([
    ['tools/list', {}],
    ['tools/call', { name: 'wait', arguments: { ms: 300 } }],
  ])('ends the POST (%s), and the handler keeps serving', async (method, params) => {
    const handler = createFetchHandler(await createErasApp(), { stateless: true, jsonResponse, logError: () => {} });
    handlers.push(handler);
    const post = (body: string) => handler(new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH }, body }));

    const response = await within(post(batch(method, params)), 2000, 'the answer');
    const text = await within(response.text(), 2000, 'its body');
    if (jsonResponse) {
      expect(response.status).toBe(202);
      expect(text).toBe('');
    } else {
      expect(response.status).toBe(200);
      // Nothing answers the cancelled request.
      expect(text).not.toContain('"id":7');
    }

    const next = await within(post(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'echo', arguments: { text: 'still here' } } })), 2000, 'the next answer');
    expect(await next.text()).toContain('still here');
  });
});
