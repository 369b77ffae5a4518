import 'reflect-metadata';
import { RedisTaskStore } from '@toolwright/redis';
import { createApp, tasks, type App, type TasksOptions } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { createTaskClient, type TaskClient } from '@toolwright/server/testing';
import { Redis } from 'ioredis';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { QueueJobs } from '../../server/test/fixtures/queueJobs';
import { refusal, taskIdOf } from '../../server/test/fixtures/taskAnswers';

/**
 * `tasks({ queue: true, maxRunning })` on a real redis-server: the bounds on unfinished tasks,
 * per caller and in all, are counted by RedisTaskStore in Redis (one script with the write), so
 * they hold across instances with connections of their own, under concurrent calls too; a task
 * leaves the count when it completes, fails, is cancelled or expires.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };

interface Instance {
  readonly app: App;
  readonly handler: FetchHandler;
  readonly redis: Redis;
  readonly store: RedisTaskStore;
  /** A task client calling as `token`'s holder (subject `token`). */
  as(token: string): TaskClient;
}

describe('bounds on queued tasks in Redis (tasks({ queue: true, maxRunning }))', () => {
  let server: RedisServer;
  const opened: Instance[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    for (const i of opened) {
      await i.app.stop();
      await i.handler.close();
      await i.store.close();
      i.redis.disconnect();
    }
    await server.close();
  });

  /** An instance of the app with a Redis connection of its own. */
  async function instance(prefix: string, options: TasksOptions): Promise<Instance> {
    const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
    const store = new RedisTaskStore({ redis, prefix });
    const app = await createApp({ name: 'jobs', version: '1.0.0', tools: [QueueJobs], extensions: [tasks({ store, logger: silent, ...options })], logger: silent });
    const verifyToken = (token: string) => ({ token, clientId: 'web', scopes: [], extra: { sub: token } });
    const handler = createFetchHandler(app, { auth: { verifyToken, resource: 'http://localhost/mcp', authorizationServers: ['https://auth.example'] }, logError: () => undefined });
    const made: Instance = { app, handler, redis, store, as: (token) => createTaskClient({ fetch: handler }, { headers: { authorization: `Bearer ${token}` } }) };
    opened.push(made);
    return made;
  }

  /** The task keys under `prefix` (one per stored task). */
  const taskKeys = async (redis: Redis, prefix: string) => (await redis.keys(`${prefix}task:*`)).length;

  it('holds per caller and in all across two instances sharing one store: an isError result naming the bound, and no task', async () => {
    const prefix = 'tw-bounds:';
    const options: TasksOptions = { queue: true, worker: false, maxRunning: { perCaller: 2, total: 3 } };
    const [one, two] = await Promise.all([instance(prefix, options), instance(prefix, options)]);
    const first = taskIdOf(await one.as('alice').call('hold'));
    taskIdOf(await two.as('alice').call('hold'));
    expect(await two.as('alice').call('hold')).toMatchObject(
      refusal("this caller has 2 unfinished tasks (queued, running or waiting for input), the most allowed (the server's tasks({ maxRunning: { perCaller } }) raises it)"),
    );
    taskIdOf(await one.as('bob').call('hold'));
    expect(await two.as('bob').call('hold')).toMatchObject(refusal("the task store holds 3 unfinished tasks, the most allowed (the server's tasks({ maxRunning: { total } }) raises it)"));
    expect(await taskKeys(one.redis, prefix)).toBe(3);
    expect(await one.redis.zcard(`${prefix}task-open`)).toBe(3);
    // Cancelled through the other instance: the place is free at once, for either instance.
    await two.as('alice').cancel(first);
    expect(await one.redis.zcard(`${prefix}task-open`)).toBe(2);
    taskIdOf(await one.as('alice').call('hold'));
  });

  it('counts atomically: 40 concurrent calls of one caller over two instances make exactly perCaller tasks', async () => {
    const prefix = 'tw-bounds-race:';
    const options: TasksOptions = { queue: true, worker: false, maxRunning: { perCaller: 5, total: 100 } };
    const [one, two] = await Promise.all([instance(prefix, options), instance(prefix, options)]);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => (n % 2 ? one : two).as('carol').call('hold')));
    expect(answers.filter((a) => a.resultType === 'task')).toHaveLength(5);
    expect(answers.filter((a) => a.resultType === 'complete')).toHaveLength(35);
    expect(await taskKeys(one.redis, prefix)).toBe(5);
  });

  it('frees places when queued tasks complete (a worker ran them) or fail (no worker took them)', async () => {
    const prefix = 'tw-bounds-end:';
    const front = await instance(prefix, { queue: true, worker: false, maxRunning: { perCaller: 2 } });
    const alice = front.as('alice');
    const done = [taskIdOf(await alice.call('quick', { n: 1 })), taskIdOf(await alice.call('quick', { n: 2 }))];
    expect(await alice.call('quick', { n: 3 })).toMatchObject(refusal('this caller has 2 unfinished tasks'));
    const worker = await instance(prefix, { worker: { pollMs: 10 } });
    await worker.app.start();
    for (const id of done) expect(await alice.poll(id)).toMatchObject({ status: 'completed' });
    await worker.app.stop();
    expect(await front.redis.zcard(`${prefix}task-open`)).toBe(0);
    const waiting = taskIdOf(await alice.call('quick', { n: 4 }));
    // A started instance that takes nothing sweeps: with one run allowed, a queued task no worker took fails.
    const sweeper = await instance(prefix, { queue: true, worker: false, heartbeatTimeoutMs: 60, maxAttempts: 1 });
    await sweeper.app.start();
    expect(await alice.poll(waiting)).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('No worker took this task') } });
    await sweeper.app.stop();
    expect(await front.redis.zcard(`${prefix}task-open`)).toBe(0);
    taskIdOf(await alice.call('quick', { n: 5 }));
    taskIdOf(await alice.call('quick', { n: 6 }));
  });

  it('frees places when queued tasks expire (their ttlMs passed) with nobody reading them, and the count sets expire too', async () => {
    const prefix = 'tw-bounds-ttl:';
    const options: TasksOptions = { queue: true, worker: false, ttlMs: 300, maxRunning: { perCaller: 1, total: 2 } };
    const [one, two] = await Promise.all([instance(prefix, options), instance(prefix, options)]);
    taskIdOf(await one.as('alice').call('hold'));
    taskIdOf(await two.as('bob').call('hold'));
    expect(await two.as('alice').call('hold')).toMatchObject(refusal('this caller has 1 unfinished task '));
    expect(await one.as('carol').call('hold')).toMatchObject(refusal('the task store holds 2 unfinished tasks'));
    const sets = await one.redis.keys(`${prefix}task-open*`);
    expect(sets).toHaveLength(3);
    for (const key of sets) expect(await one.redis.pttl(key)).toBeLessThanOrEqual(300);
    await new Promise((r) => setTimeout(r, 350));
    // The tasks and the sets that counted them are gone; both callers have room again, on either instance.
    expect(await taskKeys(one.redis, prefix)).toBe(0);
    expect(await one.redis.keys(`${prefix}task-open*`)).toEqual([]);
    taskIdOf(await two.as('carol').call('hold'));
    taskIdOf(await one.as('alice').call('hold'));
    expect(await two.as('bob').call('hold')).toMatchObject(refusal('the task store holds 2 unfinished tasks'));
  });

  it('prunes an expired task from the count while the caller has a live one (the set outlives it)', async () => {
    const prefix = 'tw-bounds-prune:';
    const short = await instance(prefix, { queue: true, worker: false, ttlMs: 200, maxRunning: { perCaller: 2 } });
    const long = await instance(prefix, { queue: true, worker: false, ttlMs: 60_000, maxRunning: { perCaller: 2 } });
    taskIdOf(await long.as('dave').call('hold'));
    taskIdOf(await short.as('dave').call('hold'));
    expect(await long.as('dave').call('hold')).toMatchObject(refusal('this caller has 2 unfinished tasks'));
    await new Promise((r) => setTimeout(r, 250));
    taskIdOf(await long.as('dave').call('hold'));
    expect(await long.as('dave').call('hold')).toMatchObject(refusal('this caller has 2 unfinished tasks'));
  });

  it('counts the tasks of instances that do not queue too, and prunes expired ones on later writes (no bound checked)', async () => {
    const prefix = 'tw-bounds-plain:';
    const plain = await instance(prefix, { ttlMs: 150 });
    const queuing = await instance(prefix, { queue: true, worker: false, maxRunning: { perCaller: 1 } });
    taskIdOf(await plain.as('erin').call('hold'));
    expect(await queuing.as('erin').call('hold')).toMatchObject(refusal('this caller has 1 unfinished task '));
    await new Promise((r) => setTimeout(r, 200));
    // A later plain write (no bound checked) prunes the expired task from the set in all: it holds only live tasks.
    taskIdOf(await plain.as('frank').call('hold'));
    expect(await plain.redis.zcard(`${prefix}task-open`)).toBe(1);
    taskIdOf(await queuing.as('erin').call('hold'));
  });
});
