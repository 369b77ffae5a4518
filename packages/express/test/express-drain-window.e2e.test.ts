import 'reflect-metadata';
import express from 'express';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toolwrightMiddleware } from '@toolwright/express';
import { stuckApp } from '../../server/test/fixtures/stuckApp';
import { waitFor } from '../../server/test/fixtures/waitFor';
import { listenExpress } from './fixtures/listenExpress';

/**
 * `mcp.close()` on a real Express 5 app on 127.0.0.1: the drain of running calls and the app's
 * wait for its work in flight share the middleware's one `drainTimeoutMs`, as the node listener's do.
 */
describe('Express 5 middleware, its drain window', () => {
  it('hands the app what is left of it: nothing once the drain used it all on a call that never settled', async () => {
    const { app, recording, handed } = await stuckApp();
    const web = express();
    const mcp = toolwrightMiddleware(recording, { drainTimeoutMs: 100, requestLogLevel: 'silent' });
    web.use(mcp);
    const { base, server } = await listenExpress(web);
    const client = new Client({ name: 'c', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      const call = client.callTool({ name: 'hang', arguments: {} }).catch((error: unknown) => error);
      await waitFor(() => app.inFlight === 1, 'the call to run');
      await mcp.close();
      await call;
    } finally {
      await client.close();
      await mcp.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // The drain waited its 100 ms for the call: the app's wait would get a second window of 10 s otherwise.
    expect(handed).toEqual([0]);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, 1.5])('drainTimeoutMs %s: mounting throws naming the option and the range, not the close', async (drainTimeoutMs) => {
    const { app } = await stuckApp();
    expect(() => toolwrightMiddleware(app, { drainTimeoutMs, requestLogLevel: 'silent' })).toThrow(
      `Toolwright: toolwrightMiddleware(app, { drainTimeoutMs }) must be a whole number of milliseconds from 0 to 2147483647, got ${drainTimeoutMs}.`,
    );
  });
});
