import { ACCEPT_BOTH, openRawSession } from './fixtures/httpHelpers';
import { ENDPOINT_KINDS, useErasEndpoints } from './fixtures/useErasEndpoints';

/**
 * An empty batch (`[]`) is an Invalid Request (JSON-RPC 2.0 §6): HTTP 400 with -32600 from the
 * node listener and the fetch handler alike, in a session and stateless. The fetch handler
 * answered it 202 (the SDK's transport accepts it and answers nothing) where the node listener
 * answered 400.
 */
const EMPTY_BATCH = { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('the batch (JSON array) is empty') } };

describe.each([
  { name: 'with sessions', stateless: false },
  { name: 'stateless', stateless: true },
])('an empty batch, $name', ({ stateless }) => {
  const endpoint = useErasEndpoints({ stateless });

  it.each(ENDPOINT_KINDS)('is refused 400 (-32600) by the %s, which keeps serving', async (kind) => {
    const url = await endpoint(kind);
    const session: Record<string, string> = stateless ? {} : { 'mcp-session-id': await openRawSession(url), 'mcp-protocol-version': '2025-11-25' };
    const post = (body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...session }, body });

    const refused = await post('[]');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual(EMPTY_BATCH);

    const served = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'after' } } }));
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('after');
  });
});
