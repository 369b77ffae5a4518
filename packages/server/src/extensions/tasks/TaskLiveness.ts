import { ErrorCodes } from '../../sdk/ProtocolError';
import type { ExtensionContext } from '../Extension';
import type { DetachedRuns } from './DetachedRuns';
import { requestRun } from './requestRun';
import { touched, type TaskRun, type TaskRunner } from './TaskRunner';
import type { StoredTask } from './TaskStore';
import type { TasksSettings } from './tasksSettings';

/**
 * What becomes of a `working` task whose instance has gone silent for longer than the heartbeat
 * timeout (it stopped or lost the store): a restartable one with runs left, or a queued one no
 * worker took, runs again here; any other is marked failed. Checked when the task is read
 * (`alive`) and, on a started instance, by a sweep of the store (`sweep`).
 */
export class TaskLiveness {
  private sweeping = false;

  constructor(
    private readonly settings: Pick<TasksSettings, 'store' | 'logger' | 'heartbeatTimeoutMs' | 'maxAttempts'>,
    private readonly runner: TaskRunner,
    private readonly detached: DetachedRuns,
  ) {}

  /**
   * The task, or what becomes of it when the instance running it has gone silent for longer than
   * the heartbeat timeout: a restartable one with runs left is claimed here (compare-and-set: one
   * instance wins) and its call runs again from the start; any other is marked failed.
   */
  async alive(task: StoredTask, callTool?: ExtensionContext['callTool']): Promise<StoredTask> {
    const { store, heartbeatTimeoutMs, maxAttempts } = this.settings;
    const now = Date.now();
    const stale = (t: StoredTask) => t.status === 'working' && now - (t.heartbeatAt ?? now) > heartbeatTimeoutMs;
    if (!stale(task) || this.runner.runs(task.taskId)) return task;
    // The poller's own call path when it polls (the same caller: tasks are bound to it), else a run outside any request.
    const runOf = (t: StoredTask): TaskRun | undefined => (callTool ? requestRun(callTool, t) : this.detached.runOf(t));
    const canRun = runOf(task) !== undefined;
    let claimed: StoredTask | undefined;
    const next = await store.update(task.taskId, (t) => {
      claimed = undefined;
      if (!stale(t)) return undefined;
      const attempt = (t.attempt ?? 1) + 1;
      const expired = t.caller?.expiresAt !== undefined && t.caller.expiresAt * 1000 <= now;
      // A queued task no worker took never ran: running it now is its first run, restartable or not.
      if ((t.restartable || t.queued) && canRun && attempt <= maxAttempts && !expired) {
        claimed = touched(t, {
          attempt,
          queued: undefined,
          statusMessage: t.queued
            ? `Started here (run ${attempt} of at most ${maxAttempts}): no worker took it from the queue in time.`
            : `Restarted (run ${attempt} of at most ${maxAttempts}): the server instance running it stopped.`,
          inputRequests: undefined,
          inputResponses: undefined,
          requestState: undefined,
        });
        return claimed;
      }
      const message = expired
        ? "The server instance running this task stopped, and the caller's credentials had expired since: the task cannot run again for them. Call the tool again."
        : t.queued
          ? `No worker took this task from the queue in ${attempt - 1} tries. Start a worker (toolwright worker) and call the tool again.`
          : t.restartable
            ? `The server instances running this task stopped ${attempt - 1} times before it finished. Call the tool again.`
            : 'The server instance running this task stopped before it finished. Call the tool again.';
      return touched(t, { status: 'failed', error: { code: ErrorCodes.InternalError, message }, queued: undefined, answers: undefined });
    });
    const run = claimed && next === claimed ? runOf(claimed) : undefined;
    if (claimed && run) this.runner.start(claimed, run);
    return next ?? task;
  }

  /** Ends (or runs again) the tasks whose instance went silent, whether or not anybody polls them. */
  async sweep(): Promise<void> {
    const { store, logger, heartbeatTimeoutMs } = this.settings;
    if (this.sweeping || !store.stale) return;
    this.sweeping = true;
    try {
      const ids = await store.stale(Date.now() - heartbeatTimeoutMs, 100);
      for (const id of ids) {
        if (this.runner.runs(id)) continue;
        const task = await store.get(id);
        if (task) await this.alive(task);
      }
    } catch (error) {
      logger.warn('tasks: the sweep for stopped tasks failed', error);
    } finally {
      this.sweeping = false;
    }
  }
}
