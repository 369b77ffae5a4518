/** A misspelt option of the route handlers would be ignored, and the endpoint served without the defence it names: they refuse it. */
import 'reflect-metadata';
import { NextRequest } from 'next/server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createRouteHandlers } from '@toolwright/next';
import { stuckApp } from '../../server/test/fixtures/stuckApp';

describe('createRouteHandlers, the names of its options', () => {
  it('refuses an option it does not have, naming the call, the nearest option and its page', async () => {
    const { app } = await stuckApp();
    expect(() => createRouteHandlers(app, { alowedHosts: ['mcp.example.com'] } as never)).toThrow(
      'Toolwright: createRouteHandlers (@toolwright/next) has no option `alowedHosts` (did you mean `allowedHosts`?). Fix the name or remove it; the options are on the Next.js page of the docs.',
    );
    // The promise createApp returns is not awaited first: the mistake shows where the route file is loaded.
    expect(() => createRouteHandlers(Promise.resolve(app), { drainTimeoutMs: 100 } as never)).toThrow('createRouteHandlers (@toolwright/next) has no option `drainTimeoutMs`.');
  });

  it('takes the fetch handler options and serves a real client with them', async () => {
    const { app } = await stuckApp();
    const route = createRouteHandlers(app, { logError: () => {}, allowedHosts: ['127.0.0.1'], path: '/mcp', health: false });
    const client = new Client({ name: 'c', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => route.POST(new NextRequest(new Request(url, init))) }));
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['hang']);
    } finally {
      await client.close();
      await route.close();
    }
  });
});
