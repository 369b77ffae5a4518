import type { App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import type { HttpListener } from '@toolwright/server/http';
import { ACCEPT_BOTH, messagesOf, openRawSession } from './fixtures/httpHelpers';
import { serveFetch } from './fixtures/serveFetch';

/**
 * Only a notification cancels: a request (it has an id) named `notifications/cancelled` is
 * answered -32601 by the SDK and cancels nothing. The node listener's transport and the fetch
 * handler's session bookkeeping took it for a cancellation, and ended the POST of the request it
 * named before that request's answer (and its own) went out: both were lost.
 */
const { createErasApp } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App> };

const BATCH = JSON.stringify([
  { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'wait', arguments: { ms: 50 } } },
  { jsonrpc: '2.0', id: 5, method: 'notifications/cancelled', params: { requestId: 6 } },
]);

describe.each([
  { mode: 'SSE', jsonResponse: false },
  { mode: 'JSON responses', jsonResponse: true },
])('a request named notifications/cancelled, in a session ($mode)', ({ jsonResponse }) => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const stop of stops) await stop();
  });

  async function endpoint(kind: 'node listener' | 'fetch handler'): Promise<string> {
    const app = await createErasApp();
    if (kind === 'node listener') {
      const listener: HttpListener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, jsonResponse });
      stops.push(() => listener.close());
      return listener.url;
    }
    const handler: FetchHandler = createFetchHandler(app, { jsonResponse, logError: () => {} });
    const served = await serveFetch(handler);
    stops.push(async () => {
      await handler.close({ drainTimeoutMs: 100 });
      await served.close();
    });
    return `${served.url.replace('127.0.0.1', 'localhost')}/mcp`;
  }

  it.each(['node listener', 'fetch handler'] as const)('cancels nothing: the %s answers both requests of the batch', async (kind) => {
    const url = await endpoint(kind);
    const session = { 'mcp-session-id': await openRawSession(url), 'mcp-protocol-version': '2025-11-25' };
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...session }, body: BATCH });
    expect(response.status).toBe(200);
    const answers = (await messagesOf(response)).filter((message) => 'id' in message);
    expect(answers).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'Method not found' } },
        expect.objectContaining({ id: 6, result: expect.objectContaining({ content: [{ type: 'text', text: 'waited' }] }) }),
      ]),
    );
    expect(answers).toHaveLength(2);
  });
});
