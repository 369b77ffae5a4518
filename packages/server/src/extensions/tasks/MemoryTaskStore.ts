import { TERMINAL, type StoredTask, type TaskStore } from './TaskStore';

/**
 * The tasks of one process, in a `Map` (the default store of `tasks()`). Tasks are forgotten
 * once they expire, and with the process: use `RedisTaskStore` (`@toolwright/redis`) for
 * several instances or restarts.
 */
export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, StoredTask>();
  private readonly listeners = new Set<(taskId: string) => void>();
  private readonly watchers = new Set<(taskId: string) => void>();
  /**
   * The ids of the tasks waiting for a worker, oldest first. An id leaves when a worker takes it,
   * and also when its task leaves the queue another way (claimed by a sweeper, cancelled, ended,
   * expired): with no worker taking from this store, ids of tasks long gone would pile up here.
   */
  private readonly queue = new Set<string>();
  /** The ids of the unfinished tasks (not terminal; expired ones until they are pruned) of each caller, and how many in all: what `createWithin` counts. */
  private readonly open = new Map<string, Set<string>>();
  private openCount = 0;
  private writes = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async create(task: StoredTask): Promise<void> {
    if (++this.writes % 256 === 0) this.sweep();
    this.tasks.set(task.taskId, task);
    this.track(task);
    this.changed(task);
  }

  async createWithin(task: StoredTask, bounds: { readonly perCaller: number; readonly total: number }): Promise<{ readonly bound: 'perCaller' | 'total'; readonly count: number } | undefined> {
    const mine = this.unfinished(task.owner);
    if (mine >= bounds.perCaller) return { bound: 'perCaller', count: mine };
    // Expired tasks leave the count in all when it reaches the bound (or in a sweep): a pass over the unfinished ones only.
    if (this.openCount >= bounds.total) for (const owner of [...this.open.keys()]) this.unfinished(owner);
    if (this.openCount >= bounds.total) return { bound: 'total', count: this.openCount };
    await this.create(task);
    return undefined;
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    return this.unexpired(taskId);
  }

  async update(taskId: string, change: (task: StoredTask) => StoredTask | undefined): Promise<StoredTask | undefined> {
    // Read, changed and written in one synchronous step: no other write can come between them (an `await` here would let two writers both change the same version).
    const task = this.unexpired(taskId);
    if (!task) return undefined;
    const next = change(task);
    if (next) {
      this.tasks.set(taskId, next);
      this.track(next);
      if (!next.queued || TERMINAL.has(next.status)) this.queue.delete(taskId);
      this.changed(next);
    }
    return next ?? task;
  }

  async publishCancel(taskId: string): Promise<void> {
    for (const listener of this.listeners) listener(taskId);
  }

  onCancel(listener: (taskId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onChange(listener: (taskId: string) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  async enqueue(taskId: string): Promise<void> {
    this.queue.add(taskId);
  }

  async requeue(taskId: string): Promise<void> {
    // A Set keeps insertion order: the id goes in first, then the ones that were behind it.
    const behind = [...this.queue];
    this.queue.clear();
    this.queue.add(taskId);
    for (const id of behind) this.queue.add(id);
  }

  async dequeue(): Promise<string | undefined> {
    const next = this.queue.values().next();
    if (next.done) return undefined;
    this.queue.delete(next.value);
    return next.value;
  }

  async stale(before: number, limit: number): Promise<string[]> {
    const now = this.now();
    const ids: string[] = [];
    for (const task of this.tasks.values()) {
      if (ids.length >= limit) break;
      if (task.status === 'working' && task.expiresAt > now && (task.heartbeatAt ?? 0) < before) ids.push(task.taskId);
    }
    return ids;
  }

  /** The task, unless it expired (then it is forgotten). */
  private unexpired(taskId: string): StoredTask | undefined {
    const task = this.tasks.get(taskId);
    if (task && task.expiresAt <= this.now()) {
      this.remove(task);
      return undefined;
    }
    return task;
  }

  private changed(task: StoredTask): void {
    for (const watcher of this.watchers) watcher(task.taskId);
  }

  /** How many tasks it holds (expired ones included until they are swept). */
  get size(): number {
    return this.tasks.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const task of this.tasks.values()) if (task.expiresAt <= now) this.remove(task);
  }

  private remove(task: StoredTask): void {
    this.tasks.delete(task.taskId);
    this.queue.delete(task.taskId);
    this.untrack(task.owner, task.taskId);
  }

  /** Counts a written task among its caller's unfinished ones, or no more once it ended. */
  private track(task: StoredTask): void {
    if (TERMINAL.has(task.status)) {
      this.untrack(task.owner, task.taskId);
      return;
    }
    let ids = this.open.get(task.owner);
    if (!ids) this.open.set(task.owner, (ids = new Set()));
    if (ids.has(task.taskId)) return;
    ids.add(task.taskId);
    this.openCount++;
  }

  private untrack(owner: string, taskId: string): void {
    const ids = this.open.get(owner);
    if (!ids?.delete(taskId)) return;
    this.openCount--;
    if (ids.size === 0) this.open.delete(owner);
  }

  /** How many unfinished tasks `owner` has, once its expired (or ended) ones left the count. */
  private unfinished(owner: string): number {
    const ids = this.open.get(owner);
    if (!ids) return 0;
    const now = this.now();
    for (const id of ids) {
      const task = this.tasks.get(id);
      if (!task) this.untrack(owner, id);
      else if (task.expiresAt <= now) this.remove(task);
      else if (TERMINAL.has(task.status)) this.untrack(owner, id);
    }
    return this.open.get(owner)?.size ?? 0;
  }
}
