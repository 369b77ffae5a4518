import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { createApp, MemoryTaskStore, tasks, type StoredTask } from '@toolwright/server';
import { createTaskClient } from '@toolwright/server/testing';
import { waitFor } from './fixtures/waitFor';

/**
 * A worker that took a task's id from the queue as its app stopped: it does not claim the task
 * it can no longer run (claimed, it would stay `working` with no run until a sweeper failed it),
 * and puts the id back on the queue for another instance's worker.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };

class Reports {
  @Tool({ description: 'Builds a report, as a task.', task: 'required' })
  build() {
    return 'built';
  }
}

/** A MemoryTaskStore that, once the test asks it to, holds a worker's `dequeue` or the write of its claim until the test lets it go. */
class HeldQueue extends MemoryTaskStore {
  taking = false;
  /** Ids put on the queue once a worker was taking one (the worker putting it back). */
  requeued = 0;
  private release: () => void = () => undefined;
  private held: { step: 'dequeue' | 'claim'; until: Promise<void> } | undefined;

  hold(step: 'dequeue' | 'claim'): void {
    this.held = { step, until: new Promise<void>((resolve) => (this.release = resolve)) };
  }

  letGo(): void {
    this.release();
  }

  private async wait(step: 'dequeue' | 'claim'): Promise<void> {
    if (this.held?.step !== step) return;
    this.taking = true;
    await this.held.until;
  }

  override async enqueue(taskId: string): Promise<void> {
    await super.enqueue(taskId);
    if (this.taking) this.requeued++;
  }

  override async requeue(taskId: string): Promise<void> {
    await super.requeue(taskId);
    if (this.taking) this.requeued++;
  }

  override async dequeue(): Promise<string | undefined> {
    const id = await super.dequeue();
    if (id !== undefined) await this.wait('dequeue');
    return id;
  }

  override async update(taskId: string, change: (task: StoredTask) => StoredTask | undefined): Promise<StoredTask | undefined> {
    const current = await this.get(taskId);
    const next = current && change(current);
    if (current?.queued && next && !next.queued && next.status === 'working') await this.wait('claim');
    return super.update(taskId, change);
  }
}

describe('a worker whose app stops while it takes a task from the queue', () => {
  it.each(['dequeue', 'claim'] as const)('at its %s: leaves the task queued, and its id on the queue', async (step) => {
    const store = new HeldQueue();
    const app = await createApp({ name: 'worker-stop', version: '1', tools: [Reports], logger: silent, extensions: [tasks({ store, logger: silent, queue: true, worker: { pollMs: 60_000 } })] });
    await app.start();
    store.hold(step);
    const handle = await createTaskClient(app).call('build');
    if (handle.resultType !== 'task') throw new Error(`expected a task handle, got ${JSON.stringify(handle)}`);
    await waitFor(() => store.taking, 'the worker to take the id');
    await app.stop();
    store.letGo();
    await waitFor(() => store.requeued === 1, 'the worker to put the id back on the queue');
    expect(await store.get(handle.task.taskId)).toMatchObject({ status: 'working', queued: true });
    expect(await store.dequeue()).toBe(handle.task.taskId);
  });
});
