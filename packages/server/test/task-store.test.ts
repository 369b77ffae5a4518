import { MemoryTaskStore, type StoredTask } from '@toolwright/server';

/** MemoryTaskStore on its own: expiry by the task's `expiresAt`, changes, Object.prototype ids. */
const task = (taskId: string, expiresAt: number): StoredTask => ({
  taskId,
  owner: '',
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
});
