import { createRedisCluster, createRedisMiddlewareStores, type RedisCluster } from '@toolwright/redis';
import type { CacheStore } from '@toolwright/server/middleware';
import { randomUUID } from 'node:crypto';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';

/** The Redis `CacheStore` on its own: keys that are digests (no caller or argument text in Redis's key space), values with a TTL. */
describe('the Redis cache store', () => {
  let redis: RedisServer;
  let cluster: RedisCluster;
  let store: CacheStore;
  const prefix = `cs-${randomUUID().slice(0, 8)}:`;

  beforeAll(async () => {
    redis = await startRedisServer();
    cluster = await createRedisCluster({ url: redis.url, prefix, logWrite: () => {} });
    store = createRedisMiddlewareStores(cluster).cache;
  });
  afterAll(async () => {
    await cluster?.close();
    await redis?.close();
  });

  it('keeps a result under a SHA-256 of its key, which names neither the caller nor the arguments', async () => {
    const key = `client:app/user:ada tool:lookup  {"card":"4111 1111 1111 1111"}`;
    await store.set(key, { value: { content: [{ type: 'text', text: 'found' }] }, expiresAt: Date.now() + 60_000 });
    const keys = await cluster.redis.keys(`${prefix}cache:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`^${prefix}cache:[A-Za-z0-9_-]{43}$`));
    expect(await cluster.redis.pttl(keys[0])).toBeGreaterThan(50_000);
    expect(await store.get(key)).toEqual({ value: { content: [{ type: 'text', text: 'found' }] }, expiresAt: expect.any(Number) });
    expect(await store.get(`${key} `)).toBeUndefined();
  });
});
