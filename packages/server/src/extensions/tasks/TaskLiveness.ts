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
  /** The sweep running now, if any: the app's stop waits for it (a claim it wrote with no run here is undone first). */
  private sweeping: Promise<void> | undefined;
  /** The id the running sweep checks now: named when a stop does not wait longer for it. */
  private checking: string | undefined;

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
    // The version the claim replaced: put back when the claim was written and there is no run for it here after all.
    let before: StoredTask | undefined;
    const next = await store.update(task.taskId, (t) => {
      claimed = undefined;
      before = t;
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
    if (!claimed || next !== claimed) return next ?? task;
    const run = runOf(claimed);
    if (run) {
      this.runner.start(claimed, run);
      return claimed;
    }
    // The app stopped while the claim was written (a sweep's run has no app to run in): undone, so the task is not left claimed and never run.
    return (await this.unclaim(before!, claimed)) ?? claimed;
  }

  /**
   * Puts back `before`, the version a claim replaced, when the task is still as `claimed` left it
   * (its attempt and status message back, its heartbeat as stale as it was, so another instance
   * claims it); a task that was queued goes back on the queue, at its front, as a worker gives back
   * an id. A store whose claim left the id on its queue (Redis) then holds it twice: the worker that
   * takes the second finds it claimed or running, and skips it.
   */
  private async unclaim(before: StoredTask, claimed: StoredTask): Promise<StoredTask | undefined> {
    const { store } = this.settings;
    let undone: StoredTask | undefined;
    const now = Date.now();
    const back = await store.update(claimed.taskId, (t) => {
      undone = undefined;
      if (t.status !== 'working' || t.lastUpdatedAt !== claimed.lastUpdatedAt || t.attempt !== claimed.attempt) return undefined;
      undone = { ...before, lastUpdatedAt: new Date(now).toISOString(), expiresAt: now + before.ttlMs };
      return undone;
    });
    if (undone && back === undone && before.queued) {
      if (store.requeue) await store.requeue(claimed.taskId);
      else await store.enqueue?.(claimed.taskId);
    }
    return back;
  }

  /** Settles once the sweep running now ended (at once when none runs). It never rejects. */
  settled(): Promise<void> {
    return this.sweeping ?? Promise.resolve();
  }

  /** The id the running sweep checks now (it may be writing or undoing a claim of it), if any. */
  get holding(): string | undefined {
    return this.checking;
  }

  /** Ends (or runs again) the tasks whose instance went silent, whether or not anybody polls them. */
  sweep(): Promise<void> {
    if (this.sweeping || !this.settings.store.stale) return Promise.resolve();
    const sweeping = this.sweepOnce().finally(() => {
      if (this.sweeping === sweeping) this.sweeping = undefined;
    });
    this.sweeping = sweeping;
    return sweeping;
  }

  private async sweepOnce(): Promise<void> {
    const { store, logger, heartbeatTimeoutMs } = this.settings;
    if (!store.stale) return;
    try {
      const ids = await store.stale(Date.now() - heartbeatTimeoutMs, 100);
      for (const id of ids) {
        // The app stopped: nothing claimed from now on could run here.
        if (!this.detached.app) return;
        if (this.runner.runs(id)) continue;
        this.checking = id;
        const task = await store.get(id);
        if (task) await this.alive(task);
      }
    } catch (error) {
      logger.warn(this.checking === undefined ? 'tasks: the sweep for stopped tasks failed' : `tasks: the sweep for stopped tasks failed at task ${this.checking}`, error);
    } finally {
      this.checking = undefined;
    }
  }
}
