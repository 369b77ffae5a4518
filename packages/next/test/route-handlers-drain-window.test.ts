/** `close({ drainTimeoutMs })` of the route handlers, called as Next calls them, with `NextRequest`s from a real MCP client. */
import 'reflect-metadata';
import { NextRequest } from 'next/server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ConfigError } from '@toolwright/core';
import { createRouteHandlers } from '@toolwright/next';
import { stuckApp } from '../../server/test/fixtures/stuckApp';
import { waitFor } from '../../server/test/fixtures/waitFor';

describe('createRouteHandlers, its drain window', () => {
  it('hands the app what is left of it: nothing once the drain used it all on a call that never settled', async () => {
    const { app, recording, handed } = await stuckApp();
    const route = createRouteHandlers(recording, { logError: () => {} });
    const client = new Client({ name: 'c', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => route.POST(new NextRequest(new Request(url, init))) }));
      const call = client.callTool({ name: 'hang', arguments: {} }).catch((error: unknown) => error);
      await waitFor(() => app.inFlight === 1, 'the call to run');
      await route.close({ drainTimeoutMs: 100 });
      await call;
    } finally {
      await client.close();
      await route.close();
    }
    // The drain waited its 100 ms for the call: the app's wait would get a second window of 10 s otherwise.
    expect(handed).toEqual([0]);
  });

  it.each([
    ['-1', -1],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['1.5', 1.5],
    ['"100"', '100'],
  ])('refuses a drain time of %s, naming the call, and keeps serving until a corrected close', async (got, ms) => {
    const { recording } = await stuckApp();
    const route = createRouteHandlers(recording, { logError: () => {} });
    const initialize = () =>
      route.POST(
        new NextRequest('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
        }),
      );
    await expect(route.close({ drainTimeoutMs: ms as number })).rejects.toThrow(
      new ConfigError(
        `Toolwright: createRouteHandlers(...).close({ drainTimeoutMs }) must be a whole number of milliseconds from 0 to 2147483647, got ${got}. Give a number such as 10000, or leave it out for 10000 ms.`,
      ),
    );
    expect((await initialize()).status).toBe(200);
    await route.close({ drainTimeoutMs: 0 });
    expect((await initialize()).status).toBe(503);
  });
});
