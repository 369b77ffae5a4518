import { MemoryTaskStore, type StoredTask } from '@toolwright/server';

/** MemoryTaskStore on its own: expiry by the task's `expiresAt`, changes, Object.prototype ids, bounded creation. */
const task = (taskId: string, expiresAt: number, owner = ''): StoredTask => ({
  taskId,
  owner,
  status: 'working',
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUpdatedAt: '2026-01-01T00:00:00.000Z',
  ttlMs: 1000,
  pollIntervalMs: 100,
  expiresAt,
  tool: 'job',
});

describe('MemoryTaskStore', () => {
  it('forgets a task once it expires, and never answers for one that is not there', async () => {
    let now = 0;
    const store = new MemoryTaskStore(() => now);
    await store.create(task('a', 1000));
    expect(await store.get('a')).toMatchObject({ taskId: 'a' });
    now = 999;
    expect(await store.get('a')).toBeDefined();
    now = 1000;
    expect(await store.get('a')).toBeUndefined();
    expect(await store.update('a', (t) => ({ ...t, status: 'completed' }))).toBeUndefined();
    for (const id of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty']) expect(await store.get(id)).toBeUndefined();
  });

  it('applies a change, and leaves the task as it is when the change returns undefined', async () => {
    const store = new MemoryTaskStore(() => 0);
    await store.create(task('b', 1000));
    expect(await store.update('b', (t) => ({ ...t, statusMessage: 'half' }))).toMatchObject({ statusMessage: 'half' });
    expect(await store.update('b', () => undefined)).toMatchObject({ statusMessage: 'half' });
  });

  it('tells its cancel listeners', async () => {
    const store = new MemoryTaskStore();
    const heard: string[] = [];
    const stop = store.onCancel((id) => heard.push(id));
    await store.publishCancel('c');
    stop();
    await store.publishCancel('d');
    expect(heard).toEqual(['c']);
  });

  it('createWithin counts unfinished tasks per caller and in all; a task leaves the count when it completes, fails, is cancelled or expires', async () => {
    let now = 0;
    const store = new MemoryTaskStore(() => now);
    const bounds = { perCaller: 2, total: 3 };
    expect(await store.createWithin(task('a1', 1000, 'alice'), bounds)).toBeUndefined();
    expect(await store.createWithin(task('a2', 2000, 'alice'), bounds)).toBeUndefined();
    expect(await store.createWithin(task('a3', 2000, 'alice'), bounds)).toEqual({ bound: 'perCaller', count: 2 });
    expect(await store.get('a3')).toBeUndefined();
    // Plain creates count too (an instance that does not queue, sharing the store).
    await store.create(task('b1', 2000, 'bob'));
    expect(await store.createWithin(task('c1', 2000, 'carol'), bounds)).toEqual({ bound: 'total', count: 3 });
    expect(await store.get('c1')).toBeUndefined();
    // Expired: a1 leaves both counts, without anybody reading it.
    now = 1000;
    expect(await store.createWithin(task('c1', 2000, 'carol'), bounds)).toBeUndefined();
    expect(await store.createWithin(task('c2', 2000, 'carol'), bounds)).toEqual({ bound: 'total', count: 3 });
    // Each terminal status frees a place; other changes (waiting for input, progress) do not.
    await store.update('a2', (t) => ({ ...t, status: 'input_required' }));
    expect(await store.createWithin(task('c2', 2000, 'carol'), bounds)).toEqual({ bound: 'total', count: 3 });
    for (const [id, status] of [
      ['a2', 'completed'],
      ['b1', 'failed'],
      ['c1', 'cancelled'],
    ] as const) {
      await store.update(id, (t) => ({ ...t, status }));
    }
    for (const id of ['d1', 'd2']) expect(await store.createWithin(task(id, 2000, 'dave'), bounds)).toBeUndefined();
    expect(await store.createWithin(task('e1', 2000, 'erin'), bounds)).toBeUndefined();
    expect(await store.createWithin(task('e2', 2000, 'erin'), bounds)).toEqual({ bound: 'total', count: 3 });
    // All expired: nothing is counted any more.
    now = 2000;
    for (const id of ['f1', 'f2']) expect(await store.createWithin(task(id, 3000, 'alice'), bounds)).toBeUndefined();
  });

  it('hands out queued tasks oldest first, each once', async () => {
    const store = new MemoryTaskStore(() => 0);
    for (const id of ['a', 'b']) {
      await store.create({ ...task(id, 1000), queued: true });
      await store.enqueue(id);
    }
    await store.enqueue('a');
    expect(await store.dequeue()).toBe('a');
    expect(await store.dequeue()).toBe('b');
    expect(await store.dequeue()).toBeUndefined();
  });

  it('keeps no id on the queue of a task that left it another way (claimed, ended, expired)', async () => {
    let now = 0;
    const store = new MemoryTaskStore(() => now);
    const queued = async (id: string, expiresAt = 1000) => {
      await store.create({ ...task(id, expiresAt), queued: true });
      await store.enqueue(id);
    };
    // With no worker taking from the store, each of these ids stayed on the queue for good.
    await queued('claimed');
    await queued('cancelled');
    await queued('failed');
    await queued('expired', 500);
    await queued('waiting');
    await store.update('claimed', (t) => ({ ...t, queued: undefined, attempt: 2 }));
    await store.update('cancelled', (t) => ({ ...t, status: 'cancelled', queued: undefined }));
    await store.update('failed', (t) => ({ ...t, status: 'failed' }));
    now = 500;
    expect(await store.get('expired')).toBeUndefined();
    expect(await store.dequeue()).toBe('waiting');
    expect(await store.dequeue()).toBeUndefined();
  });
});
