import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { RedisTaskStore } from '@toolwright/redis';
import { createApp, tasks, TASKS_EXTENSION_ID, type App, type StoredTask, type TasksOptions } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { Redis } from 'ioredis';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { modernRequest, openModern } from '../../server/test/fixtures/modernRequest';
import { streamText } from '../../server/test/fixtures/streamText';

/**
 * Tasks shared through a real redis-server: instances of one app, each with its own Redis
 * connection, answer tasks/get, tasks/update and tasks/cancel for a task another created; an
 * instance started after the creator stopped reads it too; a cancel sent to one instance aborts
 * the run on the instance that runs it; racing writers never lose a change.
 */
const CONFIRM = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const;
const aborted: string[] = [];
const runsOf = new Map<string, number>();

class Jobs {
  @Tool({ description: 'Asks for confirmation, then deletes.', task: 'required' })
  async remove(@Param('file') file: string, @Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit(`Delete ${file}?`, CONFIRM as never, { key: 'confirm' });
    return answer.action === 'accept' ? `deleted ${file}` : `kept ${file}`;
  }

  @Tool({ description: 'Waits until cancelled.', task: 'required' })
  async forever(@Param('label') label: string, @Ctx() ctx: ToolContext) {
    await new Promise((_, reject) =>
      ctx.signal.addEventListener('abort', () => {
        aborted.push(label);
        reject(new Error('aborted'));
      }),
    );
  }

  @Tool({ description: 'Answers at once.', task: true })
  quick(@Param('n') n: number) {
    return `quick ${n}`;
  }

  // The same tools as fixtures/task-instance.js, whose runs never end: here a run finishes at once.
  @Tool({ description: 'Runs again on another instance when its own stops.', task: { mode: 'required', restartable: true } })
  resumable(@Param('label') label: string) {
    return `finished ${label} in process ${process.pid}`;
  }

  @Tool({ description: 'Counts its runs.', task: 'required' })
  counted(@Param('label') label: string) {
    runsOf.set(label, (runsOf.get(label) ?? 0) + 1);
    return `counted ${label}`;
  }

  @Tool({ description: 'Fails with its instance.', task: 'required' })
  fragile(@Param('label') label: string) {
    return `finished ${label}`;
  }
}

interface Instance {
  readonly app: App;
  readonly handler: FetchHandler;
  readonly redis: Redis;
  readonly store: RedisTaskStore;
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const declaring = { elicitation: {}, extensions: { [TASKS_EXTENSION_ID]: {} } };

async function instance(url: string, heartbeatTimeoutMs?: number, prefix = 'tw-test:', options: TasksOptions = {}): Promise<Instance> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  const store = new RedisTaskStore({ redis, prefix });
  const app = await createApp({
    name: 'jobs',
    version: '1.0.0',
    tools: [Jobs],
    extensions: [tasks({ store, ttlMs: 60_000, ...(heartbeatTimeoutMs && { heartbeatTimeoutMs }), logger: silent, ...options })],
    // Every instance seals and opens a task's round state with the same key.
    requestState: { keys: ['a shared key of at least thirty-two bytes!'] },
    logger: silent,
  });
  return { app, redis, store, handler: createFetchHandler(app, { logError: () => undefined }) };
}

async function close(i: Instance): Promise<void> {
  await i.handler.close();
  await i.store.close();
  i.redis.disconnect();
}

/** One raw 2026-07-28 request to an instance; the result, or a throw carrying the JSON-RPC error code. */
const raw = (to: Instance, method: string, params: Record<string, unknown>) => modernRequest(to.handler, method, params, { capabilities: declaring });

async function until(to: Instance, taskId: string, done: (task: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (let i = 0; i < 1000; i++) {
    const task = await raw(to, 'tasks/get', { taskId });
    if (done(task)) return task;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`task ${taskId} never got there: ${JSON.stringify(await raw(to, 'tasks/get', { taskId }))}`);
}
const terminal = (t: Record<string, unknown>) => ['completed', 'failed', 'cancelled'].includes(t.status as string);

/** An instance of the app in a process of its own (fixtures/task-instance.js, on the built packages), to be killed. */
async function processInstance(redisUrl: string, prefix: string, heartbeatMs: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(__dirname, 'fixtures', 'task-instance.js')], {
    env: { ...process.env, REDIS_URL: redisUrl, TASK_PREFIX: prefix, HEARTBEAT_MS: String(heartbeatMs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fixtures/task-instance.js exited with ${code}`)));
  });
  return { child, url };
}

/** A raw 2026-07-28 request over real HTTP. */
const overHttp = (url: string, method: string, params: Record<string, unknown>) => modernRequest(url, method, params, { capabilities: declaring });

describe('tasks in Redis', () => {
  let server: RedisServer;
  let a: Instance;
  let b: Instance;
  let c: Instance;
  beforeAll(async () => {
    server = await startRedisServer();
    [a, b, c] = await Promise.all([instance(server.url), instance(server.url), instance(server.url)]);
  });
  afterAll(async () => {
    await Promise.all([a, b, c].map(close));
    await server.close();
  });

  it('serves one task through three instances: created on one, polled and answered on another, cancelled on the third', async () => {
    const { taskId } = await raw(a, 'tools/call', { name: 'remove', arguments: { file: 'three.txt' } });
    const waiting = await until(b, taskId as string, (t) => t.status === 'input_required');
    expect(waiting.inputRequests).toMatchObject({ confirm: { method: 'elicitation/create' } });
    expect(await raw(c, 'tasks/get', { taskId })).toMatchObject({ status: 'input_required' });
    await raw(b, 'tasks/update', { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
    expect(await until(c, taskId as string, terminal)).toMatchObject({ status: 'completed', result: { content: [{ text: 'deleted three.txt' }] } });

    const long = await raw(b, 'tools/call', { name: 'forever', arguments: { label: 'three' } });
    expect(await raw(a, 'tasks/get', { taskId: long.taskId })).toMatchObject({ status: 'working' });
    await raw(c, 'tasks/cancel', { taskId: long.taskId });
    expect(await until(a, long.taskId as string, terminal)).toMatchObject({ status: 'cancelled' });
    for (let i = 0; i < 1000 && !aborted.includes('three'); i++) await new Promise((r) => setTimeout(r, 5));
    expect(aborted).toContain('three');
  });

  it('sends notifications/tasks on a subscriptions/listen stream of one instance for a task another runs', async () => {
    const { taskId } = await raw(a, 'tools/call', { name: 'remove', arguments: { file: 'heard.txt' } });
    const stream = streamText(await openModern(c.handler, 'subscriptions/listen', { notifications: { taskIds: [taskId] } }, { capabilities: declaring }, 'listen-c'));
    await stream.read((t) => t.includes('"status":"input_required"'));
    await raw(b, 'tasks/update', { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
    await stream.read((t) => t.includes('"status":"completed"'));
    expect(stream.text).toContain('deleted heard.txt');
    await stream.cancel();
  });

  it('runs 1,000 concurrent tasks over three instances: every one completes once with its own result, none lost, each key expiring with its task', async () => {
    const instances = [a, b, c];
    const handles = await Promise.all(Array.from({ length: 1000 }, (_, n) => raw(instances[n % 3], 'tools/call', { name: 'quick', arguments: { n } })));
    const ids = handles.map((h) => h.taskId as string);
    expect(new Set(ids).size).toBe(1000);
    // What Redis holds for each (a tasks/get per task would only repeat the same read at ten times the cost); every tenth through another instance's tasks/get.
    let stored = await Promise.all(ids.map((id) => a.store.get(id)));
    for (let i = 0; i < 200 && stored.some((t) => t?.status !== 'completed'); i++) {
      await new Promise((r) => setTimeout(r, 10));
      stored = await Promise.all(ids.map((id) => a.store.get(id)));
    }
    stored.forEach((task, n) => expect(task).toMatchObject({ taskId: ids[n], status: 'completed', result: { content: [{ text: `quick ${n}` }] } }));
    const sampled = await Promise.all(ids.filter((_, n) => n % 10 === 0).map((taskId, k) => raw(instances[(k + 1) % 3], 'tasks/get', { taskId })));
    sampled.forEach((task, k) => expect(task).toMatchObject({ status: 'completed', result: { content: [{ text: `quick ${k * 10}` }] } }));
    // Each task is one key in Redis, and every key expires with its task: memory stays bounded by the ttl.
    const ttls = await Promise.all(ids.map((id) => a.redis.pttl(`tw-test:task:${id}`)));
    expect(ttls.every((ttl) => ttl > 0 && ttl <= 60_000)).toBe(true);
  });

  it('an instance killed mid-task: another instance runs a restartable task again to its end, and marks any other failed', async () => {
    const prefix = 'tw-kill:';
    const [survivor, doomed] = await Promise.all([instance(server.url, 1200, prefix), processInstance(server.url, prefix, 1200)]);
    try {
      const restartable = await overHttp(doomed.url, 'tools/call', { name: 'resumable', arguments: { label: 'report' } });
      const plain = await overHttp(doomed.url, 'tools/call', { name: 'fragile', arguments: { label: 'export' } });
      // Both run in the doomed process, whose progress the survivor reads from Redis.
      await until(survivor, restartable.taskId as string, (t) => String(t.statusMessage).includes(`process ${doomed.child.pid}`));
      doomed.child.kill('SIGKILL');
      const finished = await until(survivor, restartable.taskId as string, terminal);
      expect(finished).toMatchObject({ status: 'completed', result: { content: [{ text: `finished report in process ${process.pid}` }] } });
      const failed = await until(survivor, plain.taskId as string, terminal);
      expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: expect.stringContaining('stopped before it finished') } });
    } finally {
      doomed.child.kill('SIGKILL');
      await close(survivor);
    }
  });

  it('a worker, with nobody polling, finishes a restartable task whose accepting process was killed, and marks a plain one failed', async () => {
    const prefix = 'tw-sweep:';
    const [worker, doomed] = await Promise.all([instance(server.url, 1200, prefix), processInstance(server.url, prefix, 1200)]);
    await worker.app.start();
    const read = async (taskId: string, done: (t: StoredTask) => boolean) => {
      for (let i = 0; i < 1000; i++) {
        const task = await worker.store.get(taskId);
        if (task && done(task)) return task;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`task ${taskId} never got there: ${JSON.stringify(await worker.store.get(taskId))}`);
    };
    try {
      const restartable = await overHttp(doomed.url, 'tools/call', { name: 'resumable', arguments: { label: 'sweep' } });
      const plain = await overHttp(doomed.url, 'tools/call', { name: 'fragile', arguments: { label: 'sweep' } });
      await read(restartable.taskId as string, (t) => String(t.statusMessage).includes(`process ${doomed.child.pid}`));
      doomed.child.kill('SIGKILL');
      // Read from Redis directly: no tasks/get reaches any instance.
      expect(await read(restartable.taskId as string, (t) => t.status !== 'working')).toMatchObject({
        status: 'completed',
        attempt: 2,
        result: { content: [{ text: `finished sweep in process ${process.pid}` }] },
      });
      expect(await read(plain.taskId as string, (t) => t.status !== 'working')).toMatchObject({
        status: 'failed',
        error: { code: -32603, message: expect.stringContaining('stopped before it finished') },
      });
      // Ended tasks leave the set of working tasks the sweepers read.
      expect(await worker.redis.zscore(`${prefix}task-working`, restartable.taskId as string)).toBeNull();
    } finally {
      doomed.child.kill('SIGKILL');
      await worker.app.stop();
      await close(worker);
    }
  });

  it('two workers take 200 queued tasks: each runs exactly once', async () => {
    const prefix = 'tw-queue:';
    const [front, one, two] = await Promise.all([
      instance(server.url, undefined, prefix, { queue: true, worker: false }),
      instance(server.url, undefined, prefix, { worker: { pollMs: 5, concurrency: 8 } }),
      instance(server.url, undefined, prefix, { worker: { pollMs: 5, concurrency: 8 } }),
    ]);
    await Promise.all([one.app.start(), two.app.start()]);
    try {
      const labels = Array.from({ length: 200 }, (_, n) => `q${n}`);
      const handles = await Promise.all(labels.map((label) => raw(front, 'tools/call', { name: 'counted', arguments: { label } })));
      const ids = handles.map((h) => h.taskId as string);
      let stored = await Promise.all(ids.map((id) => front.store.get(id)));
      for (let i = 0; i < 500 && stored.some((t) => t?.status !== 'completed'); i++) {
        await new Promise((r) => setTimeout(r, 10));
        stored = await Promise.all(ids.map((id) => front.store.get(id)));
      }
      stored.forEach((task, n) => expect(task).toMatchObject({ status: 'completed', result: { content: [{ text: `counted q${n}` }] } }));
      expect(labels.map((label) => runsOf.get(label))).toEqual(labels.map(() => 1));
      expect(await front.redis.llen(`${prefix}task-queue`)).toBe(0);
    } finally {
      await Promise.all([one.app.stop(), two.app.stop()]);
      await Promise.all([front, one, two].map(close));
    }
  });

  it('answers on one instance for a task another created: get, update (the answering instance runs the rest), result', async () => {
    const { taskId } = await raw(a, 'tools/call', { name: 'remove', arguments: { file: 'x.txt' } });
    // Durable before the handle: the other instance finds it at once.
    expect(await raw(b, 'tasks/get', { taskId })).toMatchObject({ taskId });
    const waiting = await until(b, taskId as string, (t) => t.status !== 'working');
    expect(waiting).toMatchObject({ status: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });
    await raw(b, 'tasks/update', { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
    expect(await until(a, taskId as string, terminal)).toMatchObject({ status: 'completed', result: { content: [{ text: 'deleted x.txt' }] } });
  });

  it('aborts the run on the instance that runs it when another instance gets tasks/cancel', async () => {
    const { taskId } = await raw(a, 'tools/call', { name: 'forever', arguments: { label: 'cross' } });
    await raw(b, 'tasks/cancel', { taskId });
    expect(await until(a, taskId as string, terminal)).toMatchObject({ status: 'cancelled' });
    for (let i = 0; i < 1000 && !aborted.includes('cross'); i++) await new Promise((r) => setTimeout(r, 5));
    expect(aborted).toContain('cross');
  });

  it('aborts nothing on a cancel published for a task that is not cancelled (a forged one)', async () => {
    const { taskId } = await raw(a, 'tools/call', { name: 'forever', arguments: { label: 'forged' } });
    await a.redis.publish('tw-test:task-cancel', taskId as string);
    await new Promise((r) => setTimeout(r, 300));
    expect(aborted).not.toContain('forged');
    expect(await raw(b, 'tasks/get', { taskId })).toMatchObject({ status: 'working' });
    await raw(b, 'tasks/cancel', { taskId });
    for (let i = 0; i < 1000 && !aborted.includes('forged'); i++) await new Promise((r) => setTimeout(r, 5));
    expect(aborted).toContain('forged');
  });

  it('settles a task cancelled on one instance while it completes on another once: cancelled without a result, or completed with one', async () => {
    const ids = await Promise.all(Array.from({ length: 40 }, async (_, n) => (await raw(a, 'tools/call', { name: 'quick', arguments: { n } })).taskId as string));
    await Promise.all(ids.map((taskId) => raw(b, 'tasks/cancel', { taskId }).catch(() => undefined)));
    const settled = await Promise.all(ids.map((taskId) => until(c, taskId, terminal)));
    await new Promise((r) => setTimeout(r, 100));
    for (const [n, task] of settled.entries()) {
      const again = await raw(a, 'tasks/get', { taskId: ids[n] });
      expect(again.status).toBe(task.status);
      if (task.status === 'completed') expect(again).toMatchObject({ result: { content: [{ text: `quick ${n}` }] } });
      else expect(again).toMatchObject({ status: 'cancelled', result: undefined });
    }
  });

  it('answers tasks/get on an instance started after the creator stopped', async () => {
    const creator = await instance(server.url);
    const { taskId } = await raw(creator, 'tools/call', { name: 'quick', arguments: { n: 7 } });
    await until(creator, taskId as string, terminal);
    await close(creator);
    const later = await instance(server.url);
    try {
      expect(await raw(later, 'tasks/get', { taskId })).toMatchObject({ status: 'completed', result: { content: [{ text: 'quick 7' }] } });
    } finally {
      await close(later);
    }
  });

  it('marks a working task failed once the instance running it is cut off from Redis (its heartbeat stops)', async () => {
    const doomed = await instance(server.url, 300);
    const watcher = await instance(server.url, 300);
    try {
      const { taskId } = await raw(doomed, 'tools/call', { name: 'forever', arguments: { label: 'doomed' } });
      expect(await raw(watcher, 'tasks/get', { taskId })).toMatchObject({ status: 'working' });
      doomed.redis.disconnect();
      const failed = await until(watcher, taskId as string, terminal);
      expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: expect.stringContaining('stopped before it finished') } });
      expect(failed).not.toHaveProperty('result');
    } finally {
      await close(doomed);
      await close(watcher);
    }
  });

  it('refuses unknown ids and Object.prototype names with -32602, and keeps tasks in keys that expire', async () => {
    for (const taskId of ['nope', '__proto__', 'constructor', 'toString']) {
      await expect(raw(b, 'tasks/get', { taskId })).rejects.toMatchObject({ code: -32602 });
    }
    const { taskId } = await raw(a, 'tools/call', { name: 'quick', arguments: { n: 1 } });
    const ttl = await a.redis.pttl(`tw-test:task:${taskId as string}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('loses no change when instances write one task at once (compare-and-set)', async () => {
    const { taskId } = await raw(a, 'tools/call', { name: 'forever', arguments: { label: 'race' } });
    const writers = [a, b].flatMap((i) => Array.from({ length: 20 }, (_, n) => i.store.update(taskId as string, (t) => ({ ...t, statusMessage: `${t.statusMessage ?? ''}|${n}` }))));
    await Promise.all(writers);
    const stored = await a.store.get(taskId as string);
    expect(stored!.statusMessage!.split('|').length - 1).toBe(40);
    await raw(a, 'tasks/cancel', { taskId });
  });
});
