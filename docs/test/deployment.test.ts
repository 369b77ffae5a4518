import 'reflect-metadata';
import { createApp } from '@toolwright/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CartTools, serveScaledOut } from '../snippets/deployment/cluster';
import { startRedisServer, type RedisServer } from '../../packages/redis/test/fixtures/redisServer';

/** The deployment page's cluster snippet, run: two instances on one redis-server, one session across both. */
describe('deployment guide: scaling out on Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
    process.env.REDIS_URL = redis.url;
  });
  afterAll(async () => {
    delete process.env.REDIS_URL;
    await redis?.close();
  });

  it('serves one session from two instances, with its cart in ctx.session', async () => {
    const instances = [
      await serveScaledOut(await createApp({ name: 'cart', version: '1', tools: [CartTools] }), 0),
      await serveScaledOut(await createApp({ name: 'cart', version: '1', tools: [CartTools] }), 0),
    ];
    let next = 0;
    const transport = new StreamableHTTPClientTransport(new URL(instances[0].url), {
      fetch: ((_url: string | URL, init?: RequestInit) => fetch(instances[next++ % 2].url, init)) as typeof fetch,
    });
    const client = new Client({ name: 'docs', version: '1' });
    try {
      await client.connect(transport);
      const texts: string[] = [];
      for (const item of ['tea', 'milk', 'sugar']) {
        const result = (await client.callTool({ name: 'add_to_cart', arguments: { item } })) as { content: { text: string }[] };
        texts.push(result.content[0].text);
      }
      expect(texts).toEqual(['tea', 'tea, milk', 'tea, milk, sugar']);
    } finally {
      await client.close();
      for (const instance of instances) await instance.close();
    }
  });
});
