import 'reflect-metadata';
import { MemoryTaskStore } from '@toolwright/server';
import { heldQueue, startQueueApp, stopWhileTaking } from './fixtures/heldQueue';

/**
 * A worker that took a task's id from the queue as its app stopped: it does not claim the task
 * it can no longer run (claimed, it would stay `working` with no run until a sweeper failed it),
 * and puts the id back on the queue for another instance's worker.
 */
describe('a worker whose app stops while it takes a task from the queue', () => {
  it.each(['dequeue', 'claim'] as const)('at its %s: leaves the task queued, and its id on the queue', async (step) => {
    const store = new (heldQueue(MemoryTaskStore))();
    const [taskId] = await stopWhileTaking(await startQueueApp('worker-stop', store), store, step, 0);
    // The stop waited for the give-back: the id is back once it completed, before any shutdown hook could close the store.
    expect(store.givenBack).toBe(1);
    expect(await store.get(taskId)).toMatchObject({ status: 'working', queued: true });
    expect(await store.dequeue()).toBe(taskId);
  });
});
