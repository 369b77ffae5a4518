import 'reflect-metadata';
import { createApp, MemoryTaskStore, tasks, type App, type TasksOptions } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { createTaskClient, type TaskClient } from '@toolwright/server/testing';
import { QueueJobs } from './fixtures/queueJobs';
import { refusal, taskIdOf } from './fixtures/taskAnswers';

/**
 * `tasks({ queue: true, maxRunning })`: queued tasks are bounded per caller and in all by the
 * store's own count of unfinished tasks (queued, running or waiting for input), so the bounds
 * hold across instances sharing the store; a task leaves the count when it completes, fails,
 * is cancelled or expires. Driven by the test kit's task client over each instance's handler;
 * the Redis suite (packages/redis/test/task-bounds.e2e.test.ts) does it across connections.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };

interface Instance {
  readonly app: App;
  readonly handler: FetchHandler;
  /** A task client calling as `token`'s holder (subject `token`). */
  as(token: string): TaskClient;
}

async function instance(store: MemoryTaskStore, options: TasksOptions): Promise<Instance> {
  const app = await createApp({ name: 'jobs', version: '1.0.0', tools: [QueueJobs], extensions: [tasks({ store, logger: silent, ...options })], logger: silent });
  const verifyToken = (token: string) => ({ token, clientId: 'web', scopes: [], extra: { sub: token } });
  const handler = createFetchHandler(app, { auth: { verifyToken, resource: 'http://localhost/mcp', authorizationServers: ['https://auth.example'] }, logError: () => undefined });
  return { app, handler, as: (token) => createTaskClient({ fetch: handler }, { headers: { authorization: `Bearer ${token}` } }) };
}

describe('bounds on queued tasks (tasks({ queue: true, maxRunning }), MemoryTaskStore)', () => {
  it('holds per caller and in all across two instances sharing the store: an isError result naming the bound, and no task', async () => {
    const store = new MemoryTaskStore();
    const options: TasksOptions = { queue: true, worker: false, maxRunning: { perCaller: 2, total: 3 } };
    const [one, two] = await Promise.all([instance(store, options), instance(store, options)]);
    try {
      const first = taskIdOf(await one.as('alice').call('hold'));
      taskIdOf(await two.as('alice').call('hold'));
      expect(store.size).toBe(2);
      const mine = await one.as('alice').call('hold');
      expect(mine).toMatchObject(refusal('this caller has 2 unfinished tasks'));
      expect(mine).toMatchObject(refusal("the server's tasks({ maxRunning: { perCaller } }) raises it"));
      expect(store.size).toBe(2);
      // Another caller has room of its own, up to the bound in all.
      taskIdOf(await two.as('bob').call('hold'));
      expect(await one.as('bob').call('hold')).toMatchObject(refusal("the task store holds 3 unfinished tasks, the most allowed (the server's tasks({ maxRunning: { total } }) raises it)"));
      expect(store.size).toBe(3);
      // Cancelled on the other instance: its place is free at once.
      await two.as('alice').cancel(first);
      taskIdOf(await one.as('alice').call('hold'));
    } finally {
      await Promise.all([one.handler.close(), two.handler.close()]);
    }
  });

  it('frees a place when a queued task completes (a worker ran it) or fails (no worker took it)', async () => {
    const store = new MemoryTaskStore();
    const front = await instance(store, { queue: true, worker: false, maxRunning: { perCaller: 1 } });
    const worker = await instance(store, { worker: { pollMs: 10 } });
    try {
      const alice = front.as('alice');
      const done = taskIdOf(await alice.call('quick', { n: 1 }));
      await worker.app.start();
      expect(await alice.poll(done)).toMatchObject({ status: 'completed', result: { content: [{ text: 'quick 1' }] } });
      await worker.app.stop();
      const waiting = taskIdOf(await alice.call('quick', { n: 2 }));
      expect(await alice.call('quick', { n: 3 })).toMatchObject(refusal('this caller has 1 unfinished task'));
      // A started instance that takes nothing sweeps: with one run allowed, a queued task no worker took fails.
      const sweeper = await instance(store, { queue: true, worker: false, heartbeatTimeoutMs: 60, maxAttempts: 1 });
      await sweeper.app.start();
      try {
        expect(await alice.poll(waiting)).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('No worker took this task') } });
      } finally {
        await sweeper.app.stop();
        await sweeper.handler.close();
      }
      taskIdOf(await alice.call('quick', { n: 4 }));
    } finally {
      await Promise.all([front.handler.close(), worker.handler.close()]);
    }
  });

  it('frees a place when a queued task expires (its ttlMs passed), with nobody reading it', async () => {
    // The store's clock runs `passed` ms ahead of the real one, and the test moves it past the ttlMs once the bounds
    // were checked: with a real ttlMs of 150 ms, a loaded machine let the tasks expire before they were.
    let passed = 0;
    const store = new MemoryTaskStore(() => Date.now() + passed);
    const front = await instance(store, { queue: true, worker: false, ttlMs: 60_000, maxRunning: { perCaller: 1, total: 2 } });
    try {
      taskIdOf(await front.as('alice').call('hold'));
      taskIdOf(await front.as('bob').call('hold'));
      expect(await front.as('alice').call('hold')).toMatchObject(refusal('this caller has 1 unfinished task'));
      expect(await front.as('carol').call('hold')).toMatchObject(refusal('the task store holds 2 unfinished tasks'));
      passed = 60_000;
      taskIdOf(await front.as('carol').call('hold'));
      taskIdOf(await front.as('alice').call('hold'));
    } finally {
      await front.handler.close();
    }
  });

  it('keeps no id on the queue for a task that left it without a worker (run by a sweeper, cancelled)', async () => {
    const store = new MemoryTaskStore();
    // Queues, takes nothing, and sweeps: each queued task runs here once it looks stalled.
    const front = await instance(store, { queue: true, worker: false, heartbeatTimeoutMs: 30 });
    await front.app.start();
    try {
      const alice = front.as('alice');
      const ran = await Promise.all([1, 2, 3].map(async (n) => taskIdOf(await alice.call('quick', { n }))));
      const cancelled = taskIdOf(await alice.call('hold'));
      await alice.cancel(cancelled);
      for (const id of ran) expect(await alice.poll(id)).toMatchObject({ status: 'completed' });
      // Nothing is left for a worker to take: the ids went with the tasks.
      expect(await store.dequeue()).toBeUndefined();
    } finally {
      await front.app.stop();
      await front.handler.close();
    }
  });
});
