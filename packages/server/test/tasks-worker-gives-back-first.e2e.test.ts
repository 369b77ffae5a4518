import 'reflect-metadata';
import { MemoryTaskStore } from '@toolwright/server';
import { heldQueue, startQueueApp, stopWhileTaking } from './fixtures/heldQueue';

/**
 * A worker that took a task's id from the queue as its app stopped puts the id back where it
 * was, at the front of the queue: it was next, and the tasks queued after it stay behind it.
 */
describe('a worker whose app stops while it takes a task from the queue, with more tasks queued behind it', () => {
  it.each(['dequeue', 'claim'] as const)('at its %s: puts the id back at the front of the queue', async (step) => {
    const store = new (heldQueue(MemoryTaskStore))();
    const [first, second] = await stopWhileTaking(await startQueueApp('worker-order', store), store, step, 1);
    expect(await store.dequeue()).toBe(first);
    expect(await store.dequeue()).toBe(second);
    expect(await store.dequeue()).toBeUndefined();
  });
});

describe('MemoryTaskStore.requeue, several ids given back (each by its own worker)', () => {
  it('puts each at the front as it comes back: the id given back last is taken first (as tasks.md says)', async () => {
    const store = new MemoryTaskStore();
    for (const id of ['a', 'b', 'c']) await store.enqueue(id);
    const first = await store.dequeue();
    const second = await store.dequeue();
    await store.requeue(first!);
    await store.requeue(second!);
    expect([await store.dequeue(), await store.dequeue(), await store.dequeue(), await store.dequeue()]).toEqual(['b', 'a', 'c', undefined]);
  });
});
