import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { createApp, MemoryTaskStore, tasks, type App, type StoredTask } from '@toolwright/server';
import { createTaskClient } from '@toolwright/server/testing';
import { heldQueue } from './fixtures/heldQueue';
import { waitFor } from './fixtures/waitFor';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

class Reports {
  @Tool({ description: 'Builds a report, as a task.', task: 'required' })
  build() {
    return 'built';
  }
}

/** A task store that holds the sweep's claim of a queued task (queued -> taken, one more attempt) until the test lets it go. */
class HeldSweep extends MemoryTaskStore {
  holding = false;
  private gate: () => void = () => undefined;
  private readonly until = new Promise<void>((resolve) => (this.gate = resolve));
  letGo(): void {
    this.gate();
  }
  override async update(taskId: string, change: (task: StoredTask) => StoredTask | undefined): Promise<StoredTask | undefined> {
    const current = await this.get(taskId);
    const next = current && change(current);
    if (current?.queued && next && !next.queued && next.status === 'working' && (next.attempt ?? 1) > (current.attempt ?? 1)) {
      this.holding = true;
      await this.until;
    }
    return super.update(taskId, change);
  }
}

async function queueTask(app: App): Promise<string> {
  const handle = await createTaskClient(app).call('build');
  if (handle.resultType !== 'task') throw new TypeError(`expected a task handle, got ${JSON.stringify(handle)}`);
  return handle.task.taskId;
}

/** Whether `promise` settled by the time the event loop turned once (the stop's steps take no I/O of their own). */
async function settledSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe("the tasks extension's stop, while the worker or the sweep is in the store", () => {
  afterEach(() => jest.useRealTimers());

  it('waits 5 s at most for a worker whose store does not answer, and names the task that may not be back', async () => {
    const store = new (heldQueue(MemoryTaskStore))();
    const warnings: string[] = [];
    const logger = { ...silent, warn: (message: string) => void warnings.push(message) };
    const app = await createApp({ name: 'stop-hung-take', version: '1', tools: [Reports], logger: silent, extensions: [tasks({ store, logger, queue: true, worker: { pollMs: 60_000 } })] });
    await app.start();
    store.hold('claim');
    const taskId = await queueTask(app);
    await waitFor(() => store.taking, 'the worker to take the id');
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    let stopped = false;
    const stopping = app.stop(100).then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(4_999);
    expect(stopped).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(stopped).toBe(true);
    await stopping;
    expect(warnings).toEqual([expect.stringContaining(`task ${taskId} may not be back on the queue`)]);
    store.letGo();
  });

  it('waits for a running sweep, which puts back a queued task it claimed with no run: queued, on the queue, its attempt as it was', async () => {
    const store = new HeldSweep();
    // Queued for workers elsewhere: this instance only sweeps (no worker of its own).
    const app = await createApp({
      name: 'stop-sweep',
      version: '1',
      tools: [Reports],
      logger: silent,
      extensions: [tasks({ store, logger: silent, queue: true, worker: false, heartbeatTimeoutMs: 60 })],
    });
    await app.start();
    const taskId = await queueTask(app);
    const queued = await store.get(taskId);
    await waitFor(() => store.holding, 'the sweep to claim the queued task');
    const stopping = app.stop();
    expect(await settledSoon(stopping)).toBe(false);
    store.letGo();
    await stopping;
    const fields = (t: StoredTask | undefined) => ({ status: t?.status, queued: t?.queued, attempt: t?.attempt, statusMessage: t?.statusMessage, heartbeatAt: t?.heartbeatAt });
    expect(fields(await store.get(taskId))).toEqual({ ...fields(queued), status: 'working', queued: true });
    expect(await store.dequeue()).toBe(taskId);
  });
});
