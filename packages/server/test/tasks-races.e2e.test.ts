import 'reflect-metadata';
import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { createApp, MemoryTaskStore, tasks, TASKS_EXTENSION_ID, type App, type StoredTask } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { createTestClient } from '@toolwright/server/testing';
import { codeOf } from './fixtures/codeOf';
import { modernRequest } from './fixtures/modernRequest';

/**
 * The tasks extension when writes race: two changes of one task in the same instant, answers
 * given twice at once, a cancel that lands while an answered task starts its run again, and
 * answers the SDK leaves out of `inputResponses` (not a result object). The tasks are created
 * with raw 2026-07-28 `tools/call` (the SDK v2 client refuses a task handle); `tasks/*` go
 * through the SDK v2 client where it sends what the test needs.
 */
const declaring = { elicitation: {}, extensions: { [TASKS_EXTENSION_ID]: {} } };
const CONFIRM = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const;
const ACCEPT = { action: 'accept', content: { confirm: true } };
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const runs = { worked: 0, stopped: 0 };

class Jobs {
  @Tool({ description: 'Asks for confirmation, then works until done or cancelled.', task: 'required' })
  async confirmThenWork(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Go ahead?', CONFIRM as never, { key: 'go' });
    if (answer.action !== 'accept') return 'not asked to';
    // The slow part: a well-behaved method stops when its signal aborts.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 300);
      ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    if (ctx.signal.aborted) {
      runs.stopped++;
      return 'stopped';
    }
    runs.worked++;
    return 'worked';
  }
}

/** A store where, once armed, another instance's `tasks/cancel` lands right after the write that resumes an answered task, before its run starts. */
class CancelOnResume extends MemoryTaskStore {
  armed = false;

  override async update(taskId: string, change: (task: StoredTask) => StoredTask | undefined): Promise<StoredTask | undefined> {
    if (!this.armed) return super.update(taskId, change);
    const before = await super.get(taskId);
    const next = await super.update(taskId, change);
    if (before?.status === 'input_required' && next?.status === 'working') {
      this.armed = false;
      await super.update(taskId, (t) => ({ ...t, status: 'cancelled' }));
      await this.publishCancel(taskId);
    }
    return next;
  }
}

const JSON_RESULT = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value: value as Record<string, unknown> }) } };
type Client = Awaited<ReturnType<typeof createTestClient>>;
const request = (client: Client, method: string, params: Record<string, unknown>) => client.request({ method, params } as never, JSON_RESULT as never) as Promise<Record<string, unknown>>;

async function until(client: Client, taskId: string, done: (task: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (let i = 0; i < 500; i++) {
    const task = await request(client, 'tasks/get', { taskId });
    if (done(task)) return task;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`task ${taskId} never got there`);
}
const terminal = (t: Record<string, unknown>) => ['completed', 'failed', 'cancelled'].includes(t.status as string);

describe('MemoryTaskStore.update', () => {
  it('applies changes that race one after the other: the second sees what the first wrote', async () => {
    const store = new MemoryTaskStore();
    const now = Date.now();
    await store.create({ taskId: 't', owner: '', status: 'working', createdAt: '', lastUpdatedAt: '', ttlMs: 60_000, pollIntervalMs: 100, expiresAt: now + 60_000, tool: 'job' });
    const seen: string[] = [];
    const end = (status: 'cancelled' | 'completed') => (t: StoredTask) => (seen.push(t.status), t.status === 'working' ? { ...t, status } : undefined);
    await Promise.all([store.update('t', end('cancelled')), store.update('t', end('completed'))]);
    expect(seen).toEqual(['working', 'cancelled']);
    expect(await store.get('t')).toMatchObject({ status: 'cancelled' });
  });
});

describe('tasks when writes race (2026-07-28, in memory)', () => {
  let app: App;
  let handler: FetchHandler;
  let client: Client;
  const store = new CancelOnResume();
  beforeAll(async () => {
    app = await createApp({ name: 'races', version: '1.0.0', tools: [Jobs], extensions: [tasks({ store, ttlMs: 60_000, logger: silent })], logger: silent });
    handler = createFetchHandler(app, { logError: () => undefined });
    client = await createTestClient(app, { protocol: '2026-07-28', capabilities: declaring } as never);
  });
  afterAll(async () => {
    await client.close();
    await handler.close();
  });

  const asking = async () => {
    const { taskId } = await modernRequest(handler, 'tools/call', { name: 'confirm_then_work', arguments: {} }, { capabilities: declaring });
    await until(client, taskId as string, (t) => t.status === 'input_required');
    return taskId as string;
  };

  it('runs the call again once when the same answers arrive twice at once', async () => {
    const taskId = await asking();
    const before = runs.worked;
    // Two requests in flight at once (two HTTP requests, as two tabs or a retry would send them).
    const answer = () => modernRequest(handler, 'tasks/update', { taskId, inputResponses: { go: ACCEPT } }, { capabilities: declaring });
    await Promise.all([answer(), answer()]);
    expect(await until(client, taskId, terminal)).toMatchObject({ status: 'completed', result: { content: [{ text: 'worked' }] } });
    await new Promise((r) => setTimeout(r, 350));
    expect(runs.worked).toBe(before + 1);
  });

  it('stops the run an answer started when a cancel landed before the run did (its signal aborts)', async () => {
    const taskId = await asking();
    const before = { ...runs };
    store.armed = true;
    await request(client, 'tasks/update', { taskId, inputResponses: { go: ACCEPT } });
    for (let i = 0; i < 200 && runs.stopped === before.stopped && runs.worked === before.worked; i++) await new Promise((r) => setTimeout(r, 5));
    expect(runs).toEqual({ worked: before.worked, stopped: before.stopped + 1 });
    expect(await request(client, 'tasks/get', { taskId })).toMatchObject({ status: 'cancelled' });
  });

  it('refuses an answer to a pending question that is not a result object (-32602), and the task waits on; the server serves on', async () => {
    const taskId = await asking();
    // Raw JSON-RPC: the SDK client sends what it is given, but a test says so on the wire.
    const update = (inputResponses: Record<string, unknown>) => modernRequest(handler, 'tasks/update', { taskId, inputResponses }, { capabilities: declaring });
    for (const bad of ['yes', 42, null, [ACCEPT], { method: 'elicitation/create', result: ACCEPT }]) {
      expect(await codeOf(update({ go: bad }))).toMatchObject({ code: -32602, message: expect.stringContaining("inputResponses['go'] is not a valid elicitation/create result") });
    }
    // A key the task did not ask is ignored, whatever its value.
    expect(await update({ other: 'yes' })).toMatchObject({ resultType: 'complete' });
    expect(await request(client, 'tasks/get', { taskId })).toMatchObject({ status: 'input_required', inputRequests: { go: { method: 'elicitation/create' } } });
    await request(client, 'tasks/update', { taskId, inputResponses: { go: ACCEPT } });
    expect(await until(client, taskId, terminal)).toMatchObject({ status: 'completed', result: { content: [{ text: 'worked' }] } });
  });
});
