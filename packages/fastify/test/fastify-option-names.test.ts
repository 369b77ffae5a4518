import 'reflect-metadata';
import Fastify from 'fastify';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toolwrightPlugin } from '@toolwright/fastify';
import { stuckApp } from '../../server/test/fixtures/stuckApp';

/**
 * A misspelt option of the plugin would be ignored, and the endpoint served without the defence it
 * names: registering refuses it. Fastify's own registration options reach the plugin too, and are taken.
 */
describe('Fastify plugin, the names of its options', () => {
  it('refuses an option it does not have at registration, naming the plugin, the nearest option and its page', async () => {
    const { app } = await stuckApp();
    const fastify = Fastify();
    try {
      await expect(fastify.register(toolwrightPlugin, { app, Auth: { jwks: 'https://issuer.example/jwks' } } as never).ready()).rejects.toThrow(
        'Toolwright: toolwrightPlugin (@toolwright/fastify) has no option `Auth` (did you mean `auth`?). Fix the name or remove it; the options are on the Fastify 5 page of the docs.',
      );
    } finally {
      await fastify.close();
    }
  });

  it("takes Fastify's own prefix and logSerializers, and serves a real client under the prefix", async () => {
    const { app } = await stuckApp();
    const fastify = Fastify();
    await fastify.register(toolwrightPlugin, { app, prefix: '/v1', logSerializers: {}, drainTimeoutMs: 100, requestLogLevel: 'silent' });
    const base = await fastify.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'c', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/v1/mcp`)));
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['hang']);
    } finally {
      await client.close();
      await fastify.close();
    }
  });
});
