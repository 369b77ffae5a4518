import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { rateLimit } from '@toolwright/server/middleware';
import { randomUUID } from 'node:crypto';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { connectRoundRobin, stopInstances, textOf, type Instance } from './fixtures/instances';
import { startStoreInstances } from './fixtures/startStoreInstances';

/**
 * The Redis rate-limit store spends a token in one atomic step (a Lua script), so calls that
 * arrive together cannot all read the same full bucket: with three instances on one Redis and
 * a hundred concurrent calls of one caller, exactly `capacity` of them run.
 */
describe('rateLimit on Redis: concurrent calls across instances spend each token once', () => {
  let redis: RedisServer;
  let instances: Instance[];
  const ran = { count: 0 };
  const prefix = `rl-${randomUUID().slice(0, 8)}:`;
  const capacity = 5;

  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startStoreInstances(3, redis.url, prefix, (_, stores) => {
      class Limited {
        @Tool({ description: 'Five calls per caller across the cluster, then one every 1000 s.' })
        limited() {
          ran.count++;
          return 'ok';
        }
      }
      return { name: 'limited', version: '1', tools: [Limited], middleware: [rateLimit({ capacity, refillPerSecond: 0.001, store: stores.rateLimit })] };
    });
  });
  afterAll(async () => {
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  it('runs exactly capacity of 100 concurrent calls of one caller sent round-robin to three instances', async () => {
    const { client, sent } = await connectRoundRobin(instances.map((i) => i.listener.url));
    try {
      const answers = await Promise.all(Array.from({ length: 100 }, () => client.callTool({ name: 'limited', arguments: {} })));
      const passed = answers.filter((answer) => textOf(answer) === 'ok');
      const refused = answers.filter((answer) => (answer as { isError?: boolean }).isError === true && /rate limit/i.test(textOf(answer) ?? ''));
      expect(passed).toHaveLength(capacity);
      expect(refused).toHaveLength(100 - capacity);
      expect(ran.count).toBe(capacity);
      // The calls were spread over all three instances.
      expect(new Set(sent.map((line) => line.split(' ')[1])).size).toBe(3);
    } finally {
      await client.close();
    }
  });

  it('keeps the bucket with a TTL, and says when to retry', async () => {
    const keys = await instances[0].cluster.redis.keys(`${prefix}rl:*`);
    expect(keys).toHaveLength(1);
    expect(await instances[0].cluster.redis.pttl(keys[0])).toBeGreaterThan(0);
    const { client } = await connectRoundRobin(instances.map((i) => i.listener.url));
    try {
      // A new session is a new caller (the default key): its own full bucket.
      for (let i = 0; i < capacity; i++) expect(textOf(await client.callTool({ name: 'limited', arguments: {} }))).toBe('ok');
      const refused = await client.callTool({ name: 'limited', arguments: {} });
      expect(refused).toMatchObject({ isError: true });
      expect(textOf(refused)).toMatch(/Retry in \d+(\.\d)? s/);
    } finally {
      await client.close();
    }
  });
});
