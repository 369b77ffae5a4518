import 'reflect-metadata';
import { Hono } from 'hono';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toolwrightMiddleware } from '@toolwright/hono';
import { stuckApp } from '../../server/test/fixtures/stuckApp';
import { waitFor } from '../../server/test/fixtures/waitFor';

/**
 * `mcp.close()` on a real Hono 4 app, called through its `fetch`: the drain of running calls and
 * the app's wait for its work in flight share the middleware's one `drainTimeoutMs`, as the node
 * listener's do.
 */
describe('Hono middleware, its drain window', () => {
  it('hands the app what is left of it: nothing once the drain used it all on a call that never settled', async () => {
    const { app, recording, handed } = await stuckApp();
    const web = new Hono();
    const mcp = toolwrightMiddleware(recording, { drainTimeoutMs: 100, clientAddress: () => '127.0.0.1' });
    web.use(mcp);
    const client = new Client({ name: 'c', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: async (url, init) => web.fetch(new Request(url, init)) }));
      const call = client.callTool({ name: 'hang', arguments: {} }).catch((error: unknown) => error);
      await waitFor(() => app.inFlight === 1, 'the call to run');
      await mcp.close();
      await call;
    } finally {
      await client.close();
      await mcp.close();
    }
    // The drain waited its 100 ms for the call: the app's wait would get a second window of 10 s otherwise.
    expect(handed).toEqual([0]);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, 1.5])('drainTimeoutMs %s: mounting throws naming the option and the range, not the close', async (drainTimeoutMs) => {
    const { app } = await stuckApp();
    expect(() => toolwrightMiddleware(app, { drainTimeoutMs })).toThrow(
      `Toolwright: toolwrightMiddleware(app, { drainTimeoutMs }) must be a whole number of milliseconds from 0 to 2147483647, got ${drainTimeoutMs}.`,
    );
  });
});
