import 'reflect-metadata';
import { Param, Tool } from '@toolwright/core';
import { cache, rateLimit } from '@toolwright/server/middleware';
import { randomUUID } from 'node:crypto';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { connectRoundRobin, stopInstances, textOf, type Instance } from './fixtures/instances';
import { startStoreInstances } from './fixtures/startStoreInstances';

describe('rate limits and cached results shared by every instance (Redis stores for the middleware)', () => {
  let redis: RedisServer;
  let instances: Instance[];
  const prefix = `mw-${randomUUID().slice(0, 8)}:`;

  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startStoreInstances(3, redis.url, prefix, (i, stores) => {
      const served = { count: 0 };
      class Lookup {
        @Tool({ description: 'Three calls per caller, across the cluster.' })
        limited() {
          return 'ok';
        }

        @Tool({ description: 'Read-only: cached for a minute, across the cluster.', annotations: { readOnlyHint: true } })
        quote(@Param('symbol') symbol: string) {
          return `${symbol} served by instance ${i}, call ${++served.count}`;
        }
      }
      return {
        name: 'shared',
        version: '1',
        tools: [Lookup],
        // The cache outside the limit: a cached answer spends no token.
        middleware: [cache({ ttlMs: 60_000, store: stores.cache }), rateLimit({ capacity: 3, refillPerSecond: 0.001, store: stores.rateLimit })],
      };
    });
  });
  afterAll(async () => {
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  it('counts one bucket for a caller whichever instance serves the call', async () => {
    const { client, sent } = await connectRoundRobin(instances.map((i) => i.listener.url));
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await client.callTool({ name: 'limited', arguments: {} }));
    expect(answers.slice(0, 3).map(textOf)).toEqual(['ok', 'ok', 'ok']);
    expect(answers[3]).toMatchObject({ isError: true });
    expect(textOf(answers[3])).toMatch(/rate limit/i);
    // The four calls went to more than one instance.
    expect(new Set(sent).size).toBeGreaterThan(1);
    await client.close();
  });

  it('serves a cached result from any instance, and every key it wrote expires', async () => {
    const { client } = await connectRoundRobin(instances.map((i) => i.listener.url));
    const first = textOf(await client.callTool({ name: 'quote', arguments: { symbol: 'ACME' } }));
    expect(first).toMatch(/^ACME served by instance \d, call 1$/);
    for (let i = 0; i < 3; i++) expect(textOf(await client.callTool({ name: 'quote', arguments: { symbol: 'ACME' } }))).toBe(first);
    await client.close();

    const keys = await instances[0].cluster.redis.keys(`${prefix}*`);
    const middlewareKeys = keys.filter((k) => k.startsWith(`${prefix}rl:`) || k.startsWith(`${prefix}cache:`));
    expect(middlewareKeys.length).toBeGreaterThanOrEqual(2);
    for (const key of middlewareKeys) expect(await instances[0].cluster.redis.pttl(key)).toBeGreaterThan(0);
  });
});
