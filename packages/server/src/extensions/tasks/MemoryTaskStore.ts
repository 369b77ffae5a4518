import type { StoredTask, TaskStore } from './TaskStore';

/**
 * The tasks of one process, in a `Map` (the default store of `tasks()`). Tasks are forgotten
 * once they expire, and with the process: use `RedisTaskStore` (`@toolwright/redis`) for
 * several instances or restarts.
 */
export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, StoredTask>();
  private readonly listeners = new Set<(taskId: string) => void>();
  private readonly watchers = new Set<(taskId: string) => void>();
  private readonly queue: string[] = [];
  private writes = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async create(task: StoredTask): Promise<void> {
    if (++this.writes % 256 === 0) this.sweep();
    this.tasks.set(task.taskId, task);
    this.changed(task);
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    const task = this.tasks.get(taskId);
    if (task && task.expiresAt <= this.now()) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return task;
  }

  async update(taskId: string, change: (task: StoredTask) => StoredTask | undefined): Promise<StoredTask | undefined> {
    const task = await this.get(taskId);
    if (!task) return undefined;
    const next = change(task);
    if (next) {
      this.tasks.set(taskId, next);
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
    this.queue.push(taskId);
  }

  async dequeue(): Promise<string | undefined> {
    return this.queue.shift();
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

  private changed(task: StoredTask): void {
    for (const watcher of this.watchers) watcher(task.taskId);
  }

  /** How many tasks it holds (expired ones included until they are swept). */
  get size(): number {
    return this.tasks.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, task] of this.tasks) if (task.expiresAt <= now) this.tasks.delete(id);
  }
}
