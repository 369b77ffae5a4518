import 'reflect-metadata';
import { Ctx, Param, RequireScopes, Tool, type ToolContext } from '@toolwright/core';
import { createApp, MemoryTaskStore, tasks, TASKS_EXTENSION_ID, type App, type StoredTask, type TaskStore } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { modernRequest } from './fixtures/modernRequest';

/**
 * Tasks run outside the request that created them, in one process with a shared
 * `MemoryTaskStore` (the Redis suite does it across processes): a queued task is taken by a
 * started instance and runs as the caller who created it (client, subject, scopes; never the
 * token); a sweeper ends or restarts the tasks of a stopped instance that nobody polls; the
 * answers a client gave come back to a run started again, without asking the client again.
 */
const declaring = { elicitation: {}, extensions: { [TASKS_EXTENSION_ID]: {} } };
const CONFIRM = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const;
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const counts = { asked: 0, runs: 0 };
/** Runs of `hang` wait here until the test lets them go (never, for the ones whose instance "dies"). */
const hanging: (() => void)[] = [];

class Jobs {
  @Tool({ description: 'Says who runs it.', task: 'required' })
  @RequireScopes('reports:write')
  whoami(@Ctx() ctx: ToolContext) {
    const auth = ctx.authInfo!;
    return `${auth.clientId}/${String(auth.extra?.sub)} scopes=${auth.scopes.join(',')} token=${JSON.stringify(auth.token)}`;
  }

  @Tool({ description: 'Asks for confirmation, then waits for the test on its first run.', task: { mode: 'required', restartable: true } })
  async confirmThenWork(@Param('file') file: string, @Ctx() ctx: ToolContext) {
    counts.runs++;
    const answer = await ctx.elicit(`Delete ${file}?`, CONFIRM as never, { key: 'confirm' });
    if (counts.runs === 2) await new Promise<void>((resolve) => hanging.push(resolve));
    return answer.action === 'accept' ? `deleted ${file} on run ${counts.runs}` : `kept ${file}`;
  }

  @Tool({ description: 'Asks for confirmation, then works.', task: 'required' })
  async confirmFirst(@Param('file') file: string, @Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit(`Delete ${file}?`, CONFIRM as never, { key: 'confirm' });
    return answer.action === 'accept' ? `deleted ${file}` : `kept ${file}`;
  }
}

/** One raw 2026-07-28 request through `handler`, as `token`'s holder. */
const raw = (handler: FetchHandler, method: string, params: Record<string, unknown>, token = 'alice') =>
  modernRequest(handler, method, params, { capabilities: declaring, headers: { authorization: `Bearer ${token}` } });

/** Reads the store until `done` (no request: nobody polls these tasks). */
async function stored(store: TaskStore, taskId: string, done: (t: StoredTask) => boolean): Promise<StoredTask> {
  for (let i = 0; i < 2000; i++) {
    const task = await store.get(taskId);
    if (task && done(task)) return task;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`task ${taskId} never got there: ${JSON.stringify(await store.get(taskId))}`);
}
const terminal = (t: StoredTask) => ['completed', 'failed', 'cancelled'].includes(t.status);

/** A store that an instance stops writing to, as its process would when killed. */
function severable(store: TaskStore): TaskStore & { sever(): void } {
  let severed = false;
  const refuse = () => Promise.reject(new Error('this instance is gone'));
  return {
    sever: () => void (severed = true),
    create: (task) => (severed ? refuse() : store.create(task)),
    get: (id) => (severed ? refuse() : store.get(id)),
    update: (id, change) => (severed ? refuse() : store.update(id, change)),
    enqueue: (id) => (severed ? refuse() : store.enqueue!(id)),
    dequeue: () => (severed ? refuse() : store.dequeue!()),
    stale: (before, limit) => (severed ? refuse() : store.stale!(before, limit)),
  };
}

async function instance(store: TaskStore, options: Parameters<typeof tasks>[0] = {}): Promise<{ app: App; handler: FetchHandler }> {
  const app = await createApp({ name: 'jobs', version: '1.0.0', tools: [Jobs], extensions: [tasks({ store, ttlMs: 60_000, heartbeatTimeoutMs: 150, logger: silent, ...options })], logger: silent });
  const verifyToken = (token: string) => ({ token, clientId: 'web', scopes: token === 'alice' ? ['reports:write'] : [], extra: { sub: token } });
  return { app, handler: createFetchHandler(app, { auth: { verifyToken, resource: 'http://localhost/mcp', authorizationServers: ['https://auth.example'] }, logError: () => undefined }) };
}

describe('tasks run outside their request', () => {
  const store = new MemoryTaskStore();
  let front: { app: App; handler: FetchHandler };
  let worker: { app: App; handler: FetchHandler };
  beforeAll(async () => {
    // The front instance queues and never takes; the worker is started (as `toolwright worker` starts it) and serves nothing.
    front = await instance(store, { queue: true, worker: false });
    worker = await instance(store, { worker: { pollMs: 10 } });
    await worker.app.start();
  });
  afterAll(async () => {
    for (const release of hanging) release();
    await worker.app.stop();
    await front.handler.close();
    await worker.handler.close();
  });

  it('queues a task on one instance; a started worker takes it and runs it as the caller who created it, whose token the store never holds', async () => {
    const handle = await raw(front.handler, 'tools/call', { name: 'whoami', arguments: {} });
    expect(handle).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await stored(store, handle.taskId as string, terminal);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'web/alice scopes=reports:write token=""' }] } });
    expect(done.caller).toEqual({ clientId: 'web', scopes: ['reports:write'], extra: { sub: 'alice' } });
    expect(JSON.stringify(done)).not.toContain('Bearer');
    // The owner polls it on the front instance; another caller cannot.
    expect(await raw(front.handler, 'tasks/get', { taskId: handle.taskId })).toMatchObject({ status: 'completed' });
    await expect(raw(front.handler, 'tasks/get', { taskId: handle.taskId }, 'mallory')).rejects.toMatchObject({ code: -32602 });
  });

  it("refuses a forged run id in _meta: the call is the caller's own, checked as any other", async () => {
    // A run id only this process made, for one run, names a run outside any request: a guessed one is an ordinary call (a task here).
    expect(await raw(front.handler, 'tools/call', { name: 'whoami', arguments: {}, _meta: { 'dev.toolwright/task-run': 'guess' } })).toMatchObject({ resultType: 'task' });
    await expect(raw(front.handler, 'tools/call', { name: 'whoami', arguments: {}, _meta: { 'dev.toolwright/task-run': 'guess' } }, 'mallory')).rejects.toMatchObject({ code: -32602 });
  });

  it('marks failed, without any poll, a task whose instance stopped; runs a restartable one again as its caller', async () => {
    const stamp = new Date(Date.now() - 60_000).toISOString();
    const base = { owner: 'client:web\u0000sub:alice', createdAt: stamp, lastUpdatedAt: stamp, ttlMs: 60_000, pollIntervalMs: 1000, expiresAt: Date.now() + 60_000, heartbeatAt: Date.now() - 60_000 };
    const caller = { clientId: 'web', scopes: ['reports:write'], extra: { sub: 'alice' } };
    // What an instance killed mid-run leaves behind: working tasks whose heartbeat stopped a minute ago.
    await store.create({ ...base, taskId: 'orphan-plain', status: 'working', tool: 'whoami', caller, client: { capabilities: declaring } });
    await store.create({ ...base, taskId: 'orphan-restartable', status: 'working', tool: 'whoami', caller, client: { capabilities: declaring }, restartable: true, attempt: 1 });
    expect(await stored(store, 'orphan-plain', terminal)).toMatchObject({ status: 'failed', error: { code: -32603, message: expect.stringContaining('stopped before it finished') } });
    expect(await stored(store, 'orphan-restartable', terminal)).toMatchObject({ status: 'completed', attempt: 2, result: { content: [{ text: 'web/alice scopes=reports:write token=""' }] } });
  });

  it('starts a queued task no worker took, by a sweep; fails one whose caller expired instead of running it for them', async () => {
    const alone = new MemoryTaskStore();
    const queuing = await instance(alone, { queue: true, worker: false });
    await queuing.app.start();
    try {
      const { taskId } = await raw(queuing.handler, 'tools/call', { name: 'whoami', arguments: {} });
      expect(await stored(alone, taskId as string, terminal)).toMatchObject({
        status: 'completed',
        attempt: 2,
        statusMessage: expect.stringContaining('no worker took it'),
        result: { content: [{ text: 'web/alice scopes=reports:write token=""' }] },
      });
      const stamp = new Date(Date.now() - 60_000).toISOString();
      const caller = { clientId: 'web', scopes: ['reports:write'], extra: { sub: 'alice' }, expiresAt: Math.floor(Date.now() / 1000) - 1 };
      await alone.create({
        taskId: 'expired',
        owner: 'x',
        status: 'working',
        createdAt: stamp,
        lastUpdatedAt: stamp,
        ttlMs: 60_000,
        pollIntervalMs: 1000,
        expiresAt: Date.now() + 60_000,
        heartbeatAt: Date.now() - 60_000,
        tool: 'whoami',
        caller,
        queued: true,
      });
      expect(await stored(alone, 'expired', terminal)).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('credentials had expired') } });
    } finally {
      await queuing.app.stop();
      await queuing.handler.close();
    }
  });

  it('asks through the task when a queued run asks first: input_required from the worker, then the answer given on another instance completes it', async () => {
    const { taskId } = await raw(front.handler, 'tools/call', { name: 'confirm_first', arguments: { file: 'q.txt' } });
    // A run outside a request once failed here: its SDK server passed the questions to a client that is not there.
    const waiting = await stored(store, taskId as string, (t) => t.status !== 'working');
    expect(waiting).toMatchObject({ status: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'Delete q.txt?' } } } });
    await raw(front.handler, 'tasks/update', { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
    expect(await stored(store, taskId as string, terminal)).toMatchObject({ status: 'completed', result: { content: [{ text: 'deleted q.txt' }] } });
  });

  it('keeps only well-formed answers to pending questions: Object.prototype names are ignored, a bad answer is refused with -32602', async () => {
    counts.runs = 0;
    const { taskId } = await raw(worker.handler, 'tools/call', { name: 'confirm_then_work', arguments: { file: 'b.txt' } });
    await stored(store, taskId as string, (t) => t.status === 'input_required');
    // Parsed from JSON, as the wire delivers it: `__proto__` is an own key there.
    const hostile = JSON.parse('{"__proto__":{"action":"accept"},"constructor":{"action":"accept"},"toString":{"action":"accept"},"hasOwnProperty":{"action":"accept"}}') as object;
    await raw(worker.handler, 'tasks/update', { taskId, inputResponses: hostile });
    const task = await store.get(taskId as string);
    expect(task).toMatchObject({ status: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });
    expect(Object.keys(task!.answers ?? {})).toEqual([]);
    // An answer of the wrong shape is refused where it is given; the task waits on.
    await expect(raw(worker.handler, 'tasks/update', { taskId, inputResponses: { confirm: { action: 'maybe' } } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("inputResponses['confirm'] is not a valid elicitation/create result"),
    });
    expect(await store.get(taskId as string)).toMatchObject({ status: 'input_required' });
    await raw(worker.handler, 'tasks/cancel', { taskId });
  });

  it('gives a run started again the answers the client already gave: the client is not asked again', async () => {
    counts.runs = 0;
    const shared = new MemoryTaskStore();
    const doomedStore = severable(shared);
    // A heartbeat that lapses only once the instance is gone: at 150 ms a busy machine let it lapse while run 1 still ran.
    const doomed = await instance(doomedStore, { heartbeatTimeoutMs: 1000 });
    const survivor = await instance(shared, { worker: { pollMs: 10 }, heartbeatTimeoutMs: 1000 });
    await survivor.app.start();
    try {
      const { taskId } = await raw(doomed.handler, 'tools/call', { name: 'confirm_then_work', arguments: { file: 'a.txt' } });
      const waiting = await stored(shared, taskId as string, (t) => t.status === 'input_required');
      expect(waiting.inputRequests).toMatchObject({ confirm: { method: 'elicitation/create' } });
      // Answered on the doomed instance, whose resumed run (run 2) then hangs, and the instance dies.
      await raw(doomed.handler, 'tasks/update', { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
      for (let i = 0; i < 500 && hanging.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect(counts.runs).toBe(2);
      doomedStore.sever();
      // The survivor's sweeper runs it again (run 3): the answer comes from the store, no input_required on the way.
      const statuses: string[] = [];
      const done = await stored(shared, taskId as string, (t) => {
        statuses.push(t.status);
        return terminal(t);
      });
      expect(done).toMatchObject({ status: 'completed', attempt: 2, result: { content: [{ text: 'deleted a.txt on run 3' }] } });
      expect(statuses).not.toContain('input_required');
      expect(done.answers).toBeUndefined();
    } finally {
      await survivor.app.stop();
      await doomed.handler.close();
      await survivor.handler.close();
    }
  });
});
