import 'reflect-metadata';
import { Param, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { ACCEPT_BOTH, messagesOf, openRawSession } from './fixtures/httpHelpers';

/**
 * The direct lane (a 2025-era plain `tools/call`, answered before the SDK sees it) drops the
 * answer of a request its client cancelled. Only a notification cancels: a request named
 * `notifications/cancelled` (it has an id) is answered -32601 by the SDK and cancels nothing.
 * The lane took it for a cancellation and dropped the call's answer, so the POST never ended.
 */
class Slow {
  @Tool({ description: 'Answers after `ms` milliseconds; no context, so the direct lane serves it.' })
  async nap(@Param('ms') ms: number): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return 'rested';
  }
}

describe.each([
  { mode: 'SSE', jsonResponse: false },
  { mode: 'JSON responses', jsonResponse: true },
])('a request named notifications/cancelled beside a direct-lane call ($mode)', ({ jsonResponse }) => {
  let listener: HttpListener;
  beforeAll(async () => {
    const app = await createApp({ name: 'slow', version: '1', tools: [Slow] });
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, jsonResponse });
  });
  afterAll(() => listener.close());

  it('cancels nothing: both requests of the batch are answered', async () => {
    const url = listener.url;
    const session = { 'mcp-session-id': await openRawSession(url), 'mcp-protocol-version': '2025-11-25' };
    const body = JSON.stringify([
      { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'nap', arguments: { ms: 50 } } },
      { jsonrpc: '2.0', id: 5, method: 'notifications/cancelled', params: { requestId: 6 } },
    ]);
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...session }, body, signal: AbortSignal.timeout(5000) });
    expect(response.status).toBe(200);
    const answers = (await messagesOf(response)).filter((message) => 'id' in message);
    expect(answers).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'Method not found' } },
        expect.objectContaining({ id: 6, result: expect.objectContaining({ content: [{ type: 'text', text: 'rested' }] }) }),
      ]),
    );
    expect(answers).toHaveLength(2);
  });
});
