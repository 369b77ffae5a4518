import 'reflect-metadata';
import Fastify from 'fastify';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toolwrightPlugin } from '@toolwright/fastify';
import { stuckApp } from '../../server/test/fixtures/stuckApp';
import { waitFor } from '../../server/test/fixtures/waitFor';

/**
 * `fastify.close()` on a real Fastify 5 app on 127.0.0.1: the drain of running calls (`preClose`)
 * and the app's wait for its work in flight (`onClose`) share the plugin's one `drainTimeoutMs`,
 * as the node listener's do.
 */
describe('Fastify plugin, its drain window', () => {
  it('hands the app what is left of it: nothing once the drain used it all on a call that never settled', async () => {
    const { app, recording, handed } = await stuckApp();
    const fastify = Fastify();
    await fastify.register(toolwrightPlugin, { app: recording, drainTimeoutMs: 100, requestLogLevel: 'silent' });
    const base = await fastify.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'c', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      const call = client.callTool({ name: 'hang', arguments: {} }).catch((error: unknown) => error);
      await waitFor(() => app.inFlight === 1, 'the call to run');
      await fastify.close();
      await call;
    } finally {
      await client.close();
      await fastify.close();
    }
    // The drain waited its 100 ms for the call: the app's wait would get a second window of 10 s otherwise.
    expect(handed).toEqual([0]);
  });
});
