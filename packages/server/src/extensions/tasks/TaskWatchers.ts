import type { ToolLogger } from '@toolwright/core';
import type { StoredTask, TaskStore } from './TaskStore';

/**
 * Who listens for which tasks on this instance (`subscriptions/listen` streams): one listener on
 * the store, dispatched by task id. It listens from its making until the app stops (`close`),
 * and after that only while some stream still watches a task.
 */
export class TaskWatchers {
  private readonly byTask = new Map<string, Set<(task: StoredTask) => void>>();
  private closed = false;
  /** Stops listening to the store; undefined while not listening. */
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly store: TaskStore,
    private readonly logger: ToolLogger,
  ) {
    // Listens at once, so that a store shared between instances (Redis) publishes every write for the others' listeners.
    this.hearChanges();
  }

  /** The app stopped: the store keeps nothing of this instance once no stream watches a task here. */
  close(): void {
    this.closed = true;
    this.hearChanges();
  }

  /** Calls `listener` with each new version of the tasks `ids`; returns the means to stop. */
  watch(ids: readonly string[], listener: (task: StoredTask) => void): () => void {
    for (const id of ids) {
      let listeners = this.byTask.get(id);
      if (!listeners) this.byTask.set(id, (listeners = new Set()));
      listeners.add(listener);
    }
    this.hearChanges();
    return () => {
      for (const id of ids) {
        const listeners = this.byTask.get(id);
        listeners?.delete(listener);
        if (listeners?.size === 0) this.byTask.delete(id);
      }
      this.hearChanges();
    };
  }

  /** Listens to the store while the app runs or a stream watches a task here; else stops listening. */
  private hearChanges(): void {
    const wanted = !this.closed || this.byTask.size > 0;
    if (wanted && !this.unsubscribe) {
      const stop = this.store.onChange?.((taskId) => {
        if (this.byTask.has(taskId)) void this.read(taskId);
      });
      // A store that returns no means to stop keeps its listener (it cannot be told otherwise).
      this.unsubscribe = typeof stop === 'function' ? stop : () => undefined;
    } else if (!wanted && this.unsubscribe) {
      const stop = this.unsubscribe;
      this.unsubscribe = undefined;
      stop();
    }
  }

  /** Reads a changed task the listeners here care about, and hands it to them. */
  private async read(taskId: string): Promise<void> {
    try {
      const task = await this.store.get(taskId);
      const listeners = this.byTask.get(taskId);
      if (task && listeners) for (const listener of listeners) listener(task);
    } catch (error) {
      this.logger.warn(`task ${taskId}: its change could not be read for its listeners`, error);
    }
  }
}
