/** `close({ drainTimeoutMs })` of the route handlers, called as Next calls them, with `NextRequest`s from a real MCP client. */
import 'reflect-metadata';
import { NextRequest } from 'next/server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
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
});
