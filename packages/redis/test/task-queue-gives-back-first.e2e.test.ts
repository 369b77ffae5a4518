import 'reflect-metadata';
import { RedisTaskStore } from '@toolwright/redis';
import { Redis } from 'ioredis';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { heldQueue, startQueueApp, stopWhileTaking } from '../../server/test/fixtures/heldQueue';

/**
 * On a real redis-server: a worker that took a task's id from the queue as its app stopped puts
 * the id back at the front of the queue (it was next), ahead of the tasks queued after it, so
 * the next worker of any instance takes it first.
 */
/** A RedisTaskStore that, once the test asks it to, holds a worker's `dequeue` until the test lets it go. */
const HeldRedisQueue = heldQueue(RedisTaskStore);

describe('a worker on a Redis queue whose app stops while it takes a task, with more tasks queued behind it', () => {
  let server: RedisServer;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis.disconnect();
    await server.close();
  });

  it('puts the id back at the front of the queue', async () => {
    const store = new HeldRedisQueue({ redis, prefix: 'gives-back:' });
    const app = await startQueueApp('worker-order', store);
    try {
      const [first, second] = await stopWhileTaking(app, store, 'dequeue', 1);
      expect(await redis.lrange('gives-back:task-queue', 0, -1)).toEqual([first, second]);
      expect(await store.get(first)).toMatchObject({ status: 'working', queued: true });
    } finally {
      await app.stop();
      await store.close();
    }
  });
});
