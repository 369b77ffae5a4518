import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { RedisTaskStore } from '@toolwright/redis';
import { createApp, tasks } from '@toolwright/server';
import { createTaskClient } from '@toolwright/server/testing';
import { Redis } from 'ioredis';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { waitFor } from '../../server/test/fixtures/waitFor';

/**
 * On a real redis-server: a worker that took a task's id from the queue as its app stopped puts
 * the id back at the front of the queue (it was next), ahead of the tasks queued after it, so
 * the next worker of any instance takes it first.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };

class Reports {
  @Tool({ description: 'Builds a report, as a task.', task: 'required' })
  build() {
    return 'built';
  }
}

/** A RedisTaskStore that, once the test asks it to, holds a worker's `dequeue` until the test lets it go. */
class HeldQueue extends RedisTaskStore {
  taking = false;
  /** Ids given back to the queue once the test let the held worker go. */
  givenBack = 0;
  private letGone = false;
  private release: () => void = () => undefined;
  private held: Promise<void> | undefined;

  hold(): void {
    this.held = new Promise<void>((resolve) => (this.release = resolve));
  }

  letGo(): void {
    this.held = undefined;
    this.letGone = true;
    this.release();
  }

  override async enqueue(taskId: string): Promise<void> {
    await super.enqueue(taskId);
    if (this.letGone) this.givenBack++;
  }

  override async requeue(taskId: string): Promise<void> {
    await super.requeue(taskId);
    if (this.letGone) this.givenBack++;
  }

  override async dequeue(): Promise<string | undefined> {
    const id = await super.dequeue();
    const held = this.held;
    if (id !== undefined && held) {
      this.taking = true;
      await held;
    }
    return id;
  }
}

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
    const store = new HeldQueue({ redis, prefix: 'gives-back:' });
    const app = await createApp({ name: 'worker-order', version: '1', tools: [Reports], logger: silent, extensions: [tasks({ store, logger: silent, queue: true, worker: { pollMs: 60_000 } })] });
    await app.start();
    try {
      store.hold();
      const client = createTaskClient(app);
      const first = await client.call('build');
      await waitFor(() => store.taking, 'the worker to take the first id');
      const second = await client.call('build');
      if (first.resultType !== 'task' || second.resultType !== 'task') throw new Error(`expected task handles, got ${JSON.stringify([first, second])}`);
      await app.stop();
      store.letGo();
      await waitFor(() => store.givenBack === 1, 'the worker to give the id back');
      expect(await redis.lrange('gives-back:task-queue', 0, -1)).toEqual([first.task.taskId, second.task.taskId]);
      expect(await store.get(first.task.taskId)).toMatchObject({ status: 'working', queued: true });
    } finally {
      await app.stop();
      await store.close();
    }
  });
});
