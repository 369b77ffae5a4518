import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { RedisTaskStore } from '@toolwright/redis';
import { createApp, tasks } from '@toolwright/server';
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

  it("gives the id back before the app's shutdown hooks run: a hook that closes the store's connection loses no id", async () => {
    class Reports {
      @Tool({ description: 'Builds a report, as a task.', task: 'required' })
      build() {
        return 'built';
      }
    }
    const own = new Redis(server.url, { maxRetriesPerRequest: 1 });
    const warnings: unknown[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (...args: unknown[]) => void warnings.push(args) };
    const store = new HeldRedisQueue({ redis: own, prefix: 'gives-back-hooks:' });
    const app = await createApp({
      name: 'worker-hooks',
      version: '1',
      tools: [Reports],
      logger,
      onShutdown: async () => {
        await store.close();
        await own.quit();
      },
      extensions: [tasks({ store, logger, queue: true, worker: { pollMs: 60_000 } })],
    });
    await app.start();
    const [taken] = await stopWhileTaking(app, store, 'dequeue', 0);
    expect({ queue: await redis.lrange('gives-back-hooks:task-queue', 0, -1), warnings }).toEqual({ queue: [taken], warnings: [] });
  });
});
