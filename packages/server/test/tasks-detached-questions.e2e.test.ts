import 'reflect-metadata';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { createApp, MemoryTaskStore, tasks, TASKS_EXTENSION_ID, type App, type StoredTask, type TaskStore } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { modernRequest } from './fixtures/modernRequest';

/**
 * Queued task runs on a worker (outside any request) that ask, ask twice, throw, or ask something
 * the client did not declare; and a cancel while such a task waits for its answer.
 */
const CONFIRM = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const;
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const declaring = { elicitation: {}, extensions: { [TASKS_EXTENSION_ID]: {} } };

class Jobs {
  @Tool({ description: 'Asks twice, one after the other.', task: 'required' })
  async twice(@Param('file') file: string, @Ctx() ctx: ToolContext) {
    const a = await ctx.elicit(`Delete ${file}?`, CONFIRM as never, { key: 'first' });
    const b = await ctx.elicit(`Really delete ${file}?`, CONFIRM as never, { key: 'second' });
    return `${a.action}/${b.action}`;
  }

  @Tool({ description: 'Throws.', task: 'required' })
  boom(): string {
    throw new Error('secret internal detail');
  }

  @Tool({ description: 'Samples, which the client did not declare.', task: 'required' })
  async sample(@Ctx() ctx: ToolContext) {
    const r = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 } as never);
    return JSON.stringify(r);
  }
}

const raw = (handler: FetchHandler, method: string, params: Record<string, unknown>) => modernRequest(handler, method, params, { capabilities: declaring, headers: { authorization: 'Bearer alice' } });

async function stored(store: TaskStore, taskId: string, done: (t: StoredTask) => boolean): Promise<StoredTask> {
  for (let i = 0; i < 1000; i++) {
    const task = await store.get(taskId);
    if (task && done(task)) return task;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`task ${taskId} never got there: ${JSON.stringify(await store.get(taskId))}`);
}
const terminal = (t: StoredTask) => ['completed', 'failed', 'cancelled'].includes(t.status);

async function instance(store: TaskStore, options: Parameters<typeof tasks>[0] = {}): Promise<{ app: App; handler: FetchHandler }> {
  const app = await createApp({ name: 'jobs', version: '1.0.0', tools: [Jobs], extensions: [tasks({ store, ttlMs: 60_000, logger: silent, ...options })], logger: silent });
  const verifyToken = (token: string) => ({ token, clientId: 'web', scopes: [], extra: { sub: token } });
  return { app, handler: createFetchHandler(app, { auth: { verifyToken, resource: 'http://localhost/mcp', authorizationServers: ['https://auth.example'] }, logError: () => undefined }) };
}

describe('review 7: detached runs', () => {
  const store = new MemoryTaskStore();
  let front: { app: App; handler: FetchHandler };
  let worker: { app: App; handler: FetchHandler };
  beforeAll(async () => {
    front = await instance(store, { queue: true, worker: false });
    worker = await instance(store, { worker: { pollMs: 10 } });
    await worker.app.start();
  });
  afterAll(async () => {
    await worker.app.stop();
    await front.handler.close();
    await worker.handler.close();
  });

  it('a queued run that asks, is answered, asks again, is answered, completes', async () => {
    const { taskId } = await raw(front.handler, 'tools/call', { name: 'twice', arguments: { file: 'q' } });
    const first = await stored(store, taskId as string, (t) => t.status !== 'working');
    expect(first).toMatchObject({ status: 'input_required', inputRequests: { first: { method: 'elicitation/create' } } });
    await raw(front.handler, 'tasks/update', { taskId, inputResponses: { first: { action: 'accept', content: { confirm: true } } } });
    const second = await stored(store, taskId as string, (t) => t.status !== 'working' && Object.hasOwn(t.inputRequests ?? {}, 'second'));
    expect(second).toMatchObject({ status: 'input_required' });
    await raw(front.handler, 'tasks/update', { taskId, inputResponses: { second: { action: 'decline' } } });
    expect(await stored(store, taskId as string, terminal)).toMatchObject({ status: 'completed', result: { content: [{ text: 'accept/decline' }] } });
  });

  it('a cancel while a queued run waits for its answer cancels it; the question is gone', async () => {
    const { taskId } = await raw(front.handler, 'tools/call', { name: 'twice', arguments: { file: 'c' } });
    await stored(store, taskId as string, (t) => t.status === 'input_required');
    await raw(front.handler, 'tasks/cancel', { taskId });
    const done = await stored(store, taskId as string, terminal);
    expect(done.status).toBe('cancelled');
    expect(done.inputRequests).toBeUndefined();
  });

  it('a queued run whose tool throws ends with the tool error, no internals', async () => {
    const { taskId } = await raw(front.handler, 'tools/call', { name: 'boom', arguments: {} });
    const done = await stored(store, taskId as string, terminal);
    expect(JSON.stringify(done.result ?? done.error)).not.toContain('secret internal detail');
    expect(['completed', 'failed']).toContain(done.status);
  });

  it('a queued run that samples without the client declaring sampling ends with a clear error, not input_required', async () => {
    const { taskId } = await raw(front.handler, 'tools/call', { name: 'sample', arguments: {} });
    const done = await stored(store, taskId as string, (t) => t.status !== 'working');
    expect(done.status).not.toBe('input_required');
    console.log(JSON.stringify(done.result ?? done.error));
  });
});
