import type { ToolLogger } from '@toolwright/core';
import type { StoredTask, TaskStore } from './TaskStore';
import type { TaskStoreListeners } from './TaskStoreListeners';

/**
 * Who listens for which tasks on this instance (`subscriptions/listen` streams), by task id: the
 * store's change listener (`TaskStoreListeners`) hands it the id of each written task, and it
 * reads the ones a stream here watches. Each watch holds that listener until it stops.
 */
export class TaskWatchers {
  private readonly byTask = new Map<string, Set<(task: StoredTask) => void>>();

  constructor(
    private readonly store: TaskStore,
    private readonly logger: ToolLogger,
    private readonly listeners: TaskStoreListeners,
  ) {}

  /** Calls `listener` with each new version of the tasks `ids`; returns the means to stop. */
  watch(ids: readonly string[], listener: (task: StoredTask) => void): () => void {
    for (const id of ids) {
      let listeners = this.byTask.get(id);
      if (!listeners) this.byTask.set(id, (listeners = new Set()));
      listeners.add(listener);
    }
    const release = this.listeners.hold();
    return () => {
      for (const id of ids) {
        const listeners = this.byTask.get(id);
        listeners?.delete(listener);
        if (listeners?.size === 0) this.byTask.delete(id);
      }
      release();
    };
  }

  /** The store wrote task `taskId`: the streams here that watch it get its new version. */
  changed(taskId: string): void {
    if (this.byTask.has(taskId)) void this.read(taskId);
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
