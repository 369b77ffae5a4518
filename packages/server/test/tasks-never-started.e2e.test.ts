import 'reflect-metadata';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { createApp, tasks, TASKS_EXTENSION_ID, type App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { createTestClient } from '@toolwright/server/testing';
import { CountingTaskStore } from './fixtures/CountingTaskStore';
import { modernRequest } from './fixtures/modernRequest';

/**
 * Apps that are never started (served through `createServer`/`connect`, a fetch handler or the
 * test kit, never `listen` or `start`) have no stop to tell their tasks extension they ended. A
 * store they share (a test suite's, a Worker's per-request apps) must still keep nothing of them
 * once their requests and task runs ended: otherwise every such app stays reachable from it.
 */
const declaring = { extensions: { [TASKS_EXTENSION_ID]: {} } };
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const JSON_RESULT = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value: value as Record<string, unknown> }) } };
const aborted: string[] = [];

class Jobs {
  @Tool({ description: 'Answers at once, as a task.', task: 'required' })
  quick() {
    return 'done';
  }

  @Tool({ description: 'Waits until cancelled.', task: 'required' })
  async forever(@Ctx() ctx: ToolContext) {
    await new Promise((_, reject) =>
      ctx.signal.addEventListener('abort', () => {
        aborted.push('forever');
        reject(new Error('aborted'));
      }),
    );
    return 'never';
  }
}

const appOver = (store: CountingTaskStore): Promise<App> => createApp({ name: 'jobs', version: '1.0.0', tools: [Jobs], extensions: [tasks({ store, logger: silent })], logger: silent });

async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never happened: ${what}`);
}

type Send = (method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** Calls task tool `quick` through `call` and polls `tasks/get` through `poll` until the task completed. */
async function runQuick(call: Send, poll: Send): Promise<void> {
  const { taskId, resultType } = await call('tools/call', { name: 'quick', arguments: {} });
  expect(resultType).toBe('task');
  let status: unknown;
  await until(async () => (({ status } = await poll('tasks/get', { taskId })), status === 'completed'), `task ${String(taskId)} completed`);
}

describe('apps never started, over one task store', () => {
  it('leave no listener on the store once their requests and task runs ended, however many there are', async () => {
    const store = new CountingTaskStore();
    // Kept reachable here: the count must fall because the listeners were removed, not because the apps were collected.
    const apps: App[] = [];
    const handlers: FetchHandler[] = [];
    for (let i = 0; i < 30; i++) {
      const app = await appOver(store);
      apps.push(app);
      // The fetch handler, as a Worker serves an app (a run here holds the listeners only while it goes on).
      const handler = createFetchHandler(app, { logError: () => undefined });
      handlers.push(handler);
      const viaHandler: Send = (method, params) => modernRequest(handler, method, params, { capabilities: declaring });
      await runQuick(viaHandler, viaHandler);
      // The test kit, on 2026-07-28 requests in memory (its client reads no task handle: the task is made through the handler).
      const modern = (await createTestClient(app, { protocol: '2026-07-28', capabilities: declaring } as never)) as ModernClient;
      await runQuick(viaHandler, (method, params) => modern.request({ method, params } as never, JSON_RESULT as never) as Promise<Record<string, unknown>>);
      await modern.close();
      // A 2025-era connection of the app's own (`app.connect`), left open.
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await app.connect(serverSide);
      const legacy = new Client({ name: 'never-started', version: '1' });
      await legacy.connect(clientSide);
      expect((await legacy.listTools()).tools.map((t) => t.name)).toEqual(['quick', 'forever']);
    }
    await until(() => store.live.cancel === 0 && store.live.change === 0, 'the store kept no listener');
    expect(store.live).toEqual({ cancel: 0, change: 0 });
    expect(apps).toHaveLength(30);
    for (const handler of handlers) await handler.close();
  });

  it('hear cancels from another app while a run of theirs goes on, then leave the store', async () => {
    const store = new CountingTaskStore();
    const one = createFetchHandler(await appOver(store), { logError: () => undefined });
    const other = createFetchHandler(await appOver(store), { logError: () => undefined });
    try {
      expect(store.live).toEqual({ cancel: 0, change: 0 });
      const { taskId } = await modernRequest(one, 'tools/call', { name: 'forever', arguments: {} }, { capabilities: declaring });
      // The run holds the store's listeners of its app: one of each.
      expect(store.live).toEqual({ cancel: 1, change: 1 });
      await modernRequest(other, 'tasks/cancel', { taskId }, { capabilities: declaring });
      await until(() => aborted.includes('forever'), 'the run was aborted by the cancel the other app published');
      expect(await store.get(taskId as string)).toMatchObject({ status: 'cancelled' });
      await until(() => store.live.cancel === 0 && store.live.change === 0, 'the store kept no listener once the run ended');
    } finally {
      await one.close();
      await other.close();
    }
  });
});
