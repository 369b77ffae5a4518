import { createRedisCluster, createRedisMiddlewareStores, type RedisCluster } from '@toolwright/redis';
import type { RateLimitStore } from '@toolwright/server/middleware';
import { createHash, randomUUID } from 'node:crypto';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';

/** The Redis `RateLimitStore` on its own: its atomic `take`, on the Redis server's clock. */
describe('the Redis rate-limit store', () => {
  let redis: RedisServer;
  let cluster: RedisCluster;
  let store: RateLimitStore;
  const prefix = `rls-${randomUUID().slice(0, 8)}:`;
  const take = (key: string, capacity: number, refillPerSecond: number) => Promise.resolve(store.take!(key, { capacity, refillPerSecond, now: 0 }));
  /** The Redis key of a bucket: the prefix and a SHA-256 of the limiter's key. */
  const bucketOf = (key: string) => `${prefix}rl:${createHash('sha256').update(key).digest('base64url')}`;
  /** Milliseconds on the Redis server's clock. */
  const redisNow = async () => {
    const [s, us] = await cluster.redis.time();
    return Number(s) * 1000 + Number(us) / 1000;
  };

  beforeAll(async () => {
    redis = await startRedisServer();
    cluster = await createRedisCluster({ url: redis.url, prefix, logWrite: () => {} });
    store = createRedisMiddlewareStores(cluster).rateLimit;
  });
  afterAll(async () => {
    await cluster?.close();
    await redis?.close();
  });

  it('answers the tokens held before each take, spending one while there is one', async () => {
    const held = [];
    for (let i = 0; i < 4; i++) held.push(await take('a', 3, 0.001));
    expect(held[0]).toBe(3);
    expect(held[1]).toBeCloseTo(2, 2);
    expect(held[2]).toBeCloseTo(1, 2);
    expect(held[3]).toBeLessThan(1);
    // A refused take spends nothing.
    expect(await take('a', 3, 0.001)).toBeLessThan(1);
    expect(await take('a', 3, 0.001)).toBeGreaterThan(0);
  });

  it('refills on the Redis server clock (the one every instance shares), the passed clock aside', async () => {
    // A bucket emptied two seconds ago (on Redis's clock), refilled at 1 token a second.
    await store.set('b', { tokens: 0, updatedAt: (await redisNow()) - 2000 });
    const held = await take('b', 10, 1);
    expect(held).toBeGreaterThanOrEqual(2);
    expect(held).toBeLessThan(3.5);
  });

  it('keeps an untouched bucket until it would be full again, however slow the refill (not a fixed hour)', async () => {
    // Five calls a day: after one call, the bucket is full again in 4.8 hours.
    await take('c', 5, 5 / 86_400);
    const ttl = await cluster.redis.pttl(bucketOf('c'));
    expect(ttl).toBeGreaterThan(4.7 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(4.8 * 3600_000 + 1000);
    // bucketTtlMs caps it when given.
    const capped = createRedisMiddlewareStores(cluster, { bucketTtlMs: 60_000 }).rateLimit;
    await capped.take!('d', { capacity: 5, refillPerSecond: 5 / 86_400, now: 0 });
    expect(await cluster.redis.pttl(bucketOf('d'))).toBeLessThanOrEqual(60_000);
  });

  it('takes over a key holding another type (a bucket written by an older version) instead of failing every call', async () => {
    await cluster.redis.set(bucketOf('e'), JSON.stringify({ tokens: 0, updatedAt: 0 }), 'PX', 60_000);
    expect(await take('e', 2, 0.001)).toBe(2);
  });

  it('keys a bucket by a digest, so a caller id of kilobytes makes a short Redis key, one bucket per caller still', async () => {
    const longId = `client:${'x'.repeat(16_384)}`;
    expect(await take(`${longId}a tool:search`, 1, 0.001)).toBe(1);
    expect(await take(`${longId}a tool:search`, 1, 0.001)).toBeLessThan(1);
    // The same long id but another caller (or member): a bucket of its own.
    expect(await take(`${longId}b tool:search`, 1, 0.001)).toBe(1);
    expect(await take(`${longId}a tool:other`, 1, 0.001)).toBe(1);
    const keys = await cluster.redis.keys(`${prefix}rl:*`);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const key of keys) expect(key.length).toBeLessThan(prefix.length + 60);
    expect(keys).toContain(bucketOf(`${longId}a tool:search`));
  });

  it('reads back what it keeps through get', async () => {
    await take('f', 4, 0.001);
    const bucket = await store.get('f');
    expect(bucket?.tokens).toBeCloseTo(3, 2);
    expect(Math.abs(bucket!.updatedAt - (await redisNow()))).toBeLessThan(5000);
    expect(await store.get('never-used')).toBeUndefined();
  });
});
