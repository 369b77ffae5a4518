import 'reflect-metadata';
import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { createApp, MemoryTaskStore, tasks, TASKS_EXTENSION_ID, type App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { CountingTaskStore as CountingStore } from './fixtures/CountingTaskStore';
import { modernRequest } from './fixtures/modernRequest';

/**
 * What an app's tasks extension registers with a store it shares (several apps in one process:
 * tests, hot reloads, instances side by side) goes away when the app stops and its last run here
 * ended. A run still going when its app stops hears a cancel from another instance until it ends
 * (and its writes are announced to the other instances' streams meanwhile).
 */
const declaring = { extensions: { [TASKS_EXTENSION_ID]: {} } };
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const aborted: string[] = [];

class Jobs {
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

async function instance(store: MemoryTaskStore): Promise<{ app: App; handler: FetchHandler }> {
  const app = await createApp({ name: 'jobs', version: '1.0.0', tools: [Jobs], extensions: [tasks({ store, logger: silent })], logger: silent });
  return { app, handler: createFetchHandler(app, { logError: () => undefined }) };
}

async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never happened: ${what}`);
}

describe('the tasks extension and the store its app shares', () => {
  it('leaves no listener on the store once its app stopped, however many apps came and went', async () => {
    const store = new CountingStore();
    const apps: { app: App; handler: FetchHandler }[] = [];
    for (let i = 0; i < 20; i++) apps.push(await instance(store));
    for (const { app } of apps) await app.start();
    expect(store.live).toEqual({ cancel: 20, change: 20 });
    for (const { app, handler } of apps) {
      await app.stop();
      await handler.close();
    }
    expect(store.live).toEqual({ cancel: 0, change: 0 });
  });

  it('keeps hearing cancels for a run still going when its app stopped, from another instance; then leaves the store', async () => {
    const store = new CountingStore();
    const one = await instance(store);
    const other = await instance(store);
    await one.app.start();
    await other.app.start();
    try {
      const { taskId } = await modernRequest(one.handler, 'tools/call', { name: 'forever', arguments: {} }, { capabilities: declaring });
      expect(typeof taskId).toBe('string');
      await one.app.stop();
      // The run goes on and still hears cancels (and keeps the change listener a shared store announces its writes by).
      expect(store.live).toEqual({ cancel: 2, change: 2 });
      await modernRequest(other.handler, 'tasks/cancel', { taskId }, { capabilities: declaring });
      await until(() => aborted.includes('forever'), 'the run on the stopped app was aborted');
      expect(await store.get(taskId as string)).toMatchObject({ status: 'cancelled' });
      await until(() => store.live.cancel === 1, 'the stopped app stopped hearing cancels once its run ended');
      expect(store.live).toEqual({ cancel: 1, change: 1 });
    } finally {
      await other.app.stop();
      await one.handler.close();
      await other.handler.close();
    }
    expect(store.live).toEqual({ cancel: 0, change: 0 });
  });
});
