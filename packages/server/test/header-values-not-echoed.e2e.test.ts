import { ACCEPT_BOTH, openRawSession } from './fixtures/httpHelpers';
import { ENDPOINT_KINDS, useErasEndpoints } from './fixtures/useErasEndpoints';

/**
 * A refusal names the header it refuses and what is accepted, never the value sent: the
 * client knows what it sent, and the answer stays small. An unsupported `MCP-Protocol-Version`
 * (both servers) and an unknown `Last-Event-ID` (the node listener's transport) were repeated
 * in the error message, up to the 16 KB header limit.
 */
const LONG_VERSION = `1999-01-01${'<b>'.repeat(3000)}`;
const LONG_EVENT_ID = `1-${'x'.repeat(10_000)}`;

describe('header values in refusals', () => {
  const endpoint = useErasEndpoints();

  it.each(ENDPOINT_KINDS)('the %s names MCP-Protocol-Version and the supported versions, not the value sent', async (kind) => {
    const url = await endpoint(kind);
    const session = await openRawSession(url);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, 'mcp-session-id': session, 'mcp-protocol-version': LONG_VERSION },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).not.toContain('<b>');
    expect(text).not.toContain('1999-01-01');
    expect(text.length).toBeLessThan(400);
    expect(JSON.parse(text)).toMatchObject({ error: { code: -32000, message: expect.stringMatching(/MCP-Protocol-Version.*Supported: .*2025-11-25/) } });
  });

  it('the node listener names Last-Event-ID, not the value sent', async () => {
    const url = await endpoint('node listener');
    const session = await openRawSession(url);
    const response = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25', 'last-event-id': LONG_EVENT_ID } });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).not.toContain('xxxx');
    expect(text.length).toBeLessThan(400);
    expect(JSON.parse(text)).toMatchObject({ error: { code: -32000, message: expect.stringContaining('Last-Event-ID') } });
  });
});
