import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { createApp, MemoryTaskStore, tasks, type StoredTask } from '@toolwright/server';
import { createTaskClient } from '@toolwright/server/testing';
import { waitFor } from './fixtures/waitFor';

/**
 * A worker that took a task's id from the queue as its app stopped puts the id back where it
 * was, at the front of the queue: it was next, and the tasks queued after it stay behind it.
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
  /** Ids given back to the queue once the test let the held worker go. */
  givenBack = 0;
  private letGone = false;
  private release: () => void = () => undefined;
  private held: { step: 'dequeue' | 'claim'; until: Promise<void> } | undefined;

  hold(step: 'dequeue' | 'claim'): void {
    this.held = { step, until: new Promise<void>((resolve) => (this.release = resolve)) };
  }

  letGo(): void {
    this.held = undefined;
    this.letGone = true;
    this.release();
  }

  private async wait(step: 'dequeue' | 'claim'): Promise<void> {
    const held = this.held;
    if (held?.step !== step) return;
    this.taking = true;
    await held.until;
  }

  override async enqueue(taskId: string): Promise<void> {
    await super.enqueue(taskId);
    if (this.letGone) this.givenBack++;
  }

  override async requeue(taskId: string): Promise<void> {
    await super.requeue(taskId);
    if (this.letGone) this.givenBack++;
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

describe('a worker whose app stops while it takes a task from the queue, with more tasks queued behind it', () => {
  it.each(['dequeue', 'claim'] as const)('at its %s: puts the id back at the front of the queue', async (step) => {
    const store = new HeldQueue();
    const app = await createApp({ name: 'worker-order', version: '1', tools: [Reports], logger: silent, extensions: [tasks({ store, logger: silent, queue: true, worker: { pollMs: 60_000 } })] });
    await app.start();
    store.hold(step);
    const client = createTaskClient(app);
    const first = await client.call('build');
    await waitFor(() => store.taking, 'the worker to take the first id');
    const second = await client.call('build');
    if (first.resultType !== 'task' || second.resultType !== 'task') throw new Error(`expected task handles, got ${JSON.stringify([first, second])}`);
    await app.stop();
    store.letGo();
    await waitFor(() => store.givenBack === 1, 'the worker to give the id back');
    expect(await store.dequeue()).toBe(first.task.taskId);
    expect(await store.dequeue()).toBe(second.task.taskId);
    expect(await store.dequeue()).toBeUndefined();
  });
});
