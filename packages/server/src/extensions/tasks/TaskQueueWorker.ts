import { ErrorCodes } from '../../sdk/ProtocolError';
import type { DetachedRuns } from './DetachedRuns';
import { touched, type TaskRunner } from './TaskRunner';
import type { StoredTask } from './TaskStore';
import type { TasksSettings } from './tasksSettings';

/** Takes queued tasks from the store and runs them here, as the callers who created them, while this started instance has room for more runs. */
export class TaskQueueWorker {
  /** The take running now, if any: the app's stop waits for it (an id it took goes back to the queue before the shutdown hooks close the store). */
  private taking: Promise<void> | undefined;
  /** The id the running take holds now: taken from the queue, and neither started here nor given back yet. */
  private held: string | undefined;

  constructor(
    private readonly settings: Pick<TasksSettings, 'store' | 'logger' | 'concurrency'>,
    private readonly runner: TaskRunner,
    private readonly detached: DetachedRuns,
  ) {}

  /** Takes queued tasks while this instance has room for more runs (nothing before the app started); one take at a time. */
  take(): Promise<void> {
    if (this.taking || !this.detached.app || !this.settings.store.dequeue) return Promise.resolve();
    const taking = this.takeWhileRoom().finally(() => {
      if (this.taking === taking) this.taking = undefined;
    });
    this.taking = taking;
    return taking;
  }

  /**
   * Settles once the take running now ended (at once when none runs). Asked once the app stopped,
   * it ends soon: an id taken from now on is only given back. It never rejects.
   */
  settled(): Promise<void> {
    return this.taking ?? Promise.resolve();
  }

  /** The id the running take holds now (taken from the queue, neither run here nor back on it yet), if any: named when a stop does not wait longer. */
  get holding(): string | undefined {
    return this.held;
  }

  private async takeWhileRoom(): Promise<void> {
    const { store, logger, concurrency } = this.settings;
    if (!store.dequeue) return;
    try {
      while (this.runner.active < concurrency) {
        this.held = undefined;
        const id = await store.dequeue();
        if (id === undefined) return;
        this.held = id;
        // The app stopped while the id came: a task claimed now would have no run here, so it stays queued, its id back at the front of the queue for another worker.
        if (!this.detached.app) {
          await this.giveBack(id);
          return;
        }
        let claimed: StoredTask | undefined;
        await store.update(id, (t) => {
          claimed = undefined;
          if (!t.queued || t.status !== 'working') return undefined;
          if (t.caller?.expiresAt !== undefined && t.caller.expiresAt * 1000 <= Date.now()) {
            const message = "The caller's credentials expired before a worker took this task: it does not run for them. Call the tool again.";
            return touched(t, { status: 'failed', queued: undefined, error: { code: ErrorCodes.InternalError, message } });
          }
          claimed = touched(t, { queued: undefined });
          return claimed;
        });
        const run = claimed && this.detached.runOf(claimed);
        if (claimed && run) this.runner.start(claimed, run);
        else if (claimed) {
          // The app stopped while the claim was written: the task goes back to the queue, as it was.
          const mine = claimed;
          await store.update(id, (t) => (t.status === 'working' && t.lastUpdatedAt === mine.lastUpdatedAt && !t.queued ? { ...t, queued: true } : undefined));
          await this.giveBack(id);
          return;
        }
      }
    } catch (error) {
      const id = this.held;
      logger.warn(
        id === undefined ? 'tasks: the queue could not be read' : `tasks: the queue could not be read or written for task ${id}; it may not be back on the queue (a sweep starts it once it is stale)`,
        error,
      );
    } finally {
      this.held = undefined;
    }
  }

  /** Puts an id this worker took and does not run back where it was, at the front of the queue (at its end, for a store without `requeue`). */
  private async giveBack(id: string): Promise<void> {
    const { store } = this.settings;
    if (store.requeue) await store.requeue(id);
    else await store.enqueue!(id);
  }
}
