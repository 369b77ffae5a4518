import { ACCEPT_BOTH, messagesOf, openRawSession } from './fixtures/httpHelpers';
import { ENDPOINT_KINDS, useErasEndpoints } from './fixtures/useErasEndpoints';

/**
 * Only a notification cancels: a request (it has an id) named `notifications/cancelled` is
 * answered -32601 by the SDK and cancels nothing. The node listener's transport and the fetch
 * handler's session bookkeeping took it for a cancellation, and ended the POST of the request it
 * named before that request's answer (and its own) went out: both were lost.
 */
const BATCH = JSON.stringify([
  { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'wait', arguments: { ms: 50 } } },
  { jsonrpc: '2.0', id: 5, method: 'notifications/cancelled', params: { requestId: 6 } },
]);

describe.each([
  { mode: 'SSE', jsonResponse: false },
  { mode: 'JSON responses', jsonResponse: true },
])('a request named notifications/cancelled, in a session ($mode)', ({ jsonResponse }) => {
  const endpoint = useErasEndpoints({ jsonResponse });

  it.each(ENDPOINT_KINDS)('cancels nothing: the %s answers both requests of the batch', async (kind) => {
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
