import { ToolwrightError } from '@toolwright/core';
import { toolErrorResult, type toolTaskMode } from '@toolwright/core/internal';
import type { ExtensionContext, ToolCallRequest, ToolRunOverride } from '../Extension';
import type { DetachedRuns } from './DetachedRuns';
import { newTaskId } from './newTaskId';
import { ownerOf } from './ownerOf';
import { storedCallerOf } from './storedCallerOf';
import { storedClientOf } from './storedClientOf';
import type { TaskQueueWorker } from './TaskQueueWorker';
import type { TaskRunner } from './TaskRunner';
import { activeTraceparent } from './taskSpan';
import type { StoredTask } from './TaskStore';
import type { TasksSettings } from './tasksSettings';
import { createTaskResult } from './taskWire';
import { tooBusy, tooManyQueued } from './tooBusy';

/** How a tool runs as a task (`@Tool({ task })`), as the tool's metadata says. */
type TaskMode = NonNullable<ReturnType<typeof toolTaskMode>>;

/**
 * Makes the task of a task tool's call (the task-augmented `tools/call`): stores it, then runs it
 * here or puts it on the store's queue, within the bounds of `maxRunning`.
 */
export class TaskCreator {
  constructor(
    private readonly settings: Pick<TasksSettings, 'store' | 'logger' | 'ttlMs' | 'pollIntervalMs' | 'inputFirstMs' | 'maxPerCaller' | 'maxTotal' | 'queue' | 'worker'>,
    private readonly runner: TaskRunner,
    private readonly worker: TaskQueueWorker,
    private readonly detached: DetachedRuns,
  ) {}

  /** Makes the task of a task tool's call and answers with its handle (or, `inputFirst`, the first round's questions). */
  async create(call: ToolCallRequest, mode: TaskMode, ctx: ExtensionContext, next: (override?: ToolRunOverride) => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
    const { store, logger, ttlMs, pollIntervalMs } = this.settings;
    const { runner } = this;
    const now = Date.now();
    const stamp = new Date(now).toISOString();
    // Each run's span links to this request's span (when traced), on whichever instance runs it.
    const traceparent = activeTraceparent();
    const task: StoredTask = {
      taskId: newTaskId(),
      owner: ownerOf(ctx),
      status: 'working',
      createdAt: stamp,
      lastUpdatedAt: stamp,
      ttlMs,
      pollIntervalMs,
      expiresAt: now + ttlMs,
      heartbeatAt: now,
      tool: call.name,
      ...(call.arguments && { arguments: call.arguments }),
      ...(mode.restartable && { restartable: true, attempt: 1 }),
      ...(traceparent && { traceparent }),
      ...storedCallerOf(ctx.authInfo),
      client: storedClientOf(ctx),
    };
    if (this.settings.queue) {
      // Stored, then queued: a worker takes it; should the queue refuse the id, a sweeper runs it once it looks stalled.
      const queued: StoredTask = { ...task, queued: true };
      // Counted by the store, with the write: the bounds hold across every instance queuing into it.
      if (store.createWithin) {
        const reached = await store.createWithin(queued, { perCaller: this.settings.maxPerCaller, total: this.settings.maxTotal });
        if (reached) return toolErrorResult(tooManyQueued(reached, call.name));
      } else await store.create(queued);
      await store.enqueue!(task.taskId).catch((error: unknown) => logger.warn(`task ${task.taskId}: it could not be queued; a sweeper starts it`, error));
      if (this.detached.app && this.settings.worker) void this.worker.take();
      return createTaskResult(queued);
    }

    const busy = tooBusy(runner, this.settings, task.owner, call.name);
    if (busy) return toolErrorResult(busy);
    const round = runner.begin(task, next);
    if (mode.inputFirst) {
      // Questions asked before the method does anything else go out as a plain round trip, without a task.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const window = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, this.settings.inputFirstMs, undefined)));
      const early = await Promise.race([
        round.answer.then(
          (answer) => answer,
          () => undefined,
        ),
        window,
      ]);
      clearTimeout(timer);
      if (early?.resultType === 'input_required') {
        runner.drop(round);
        return early;
      }
    }
    // The handle goes out only once the store has the task (SEP-2663: durably created).
    try {
      await store.create(task);
    } catch (error) {
      round.controller.abort(new ToolwrightError('The task could not be stored.'));
      runner.drop(round);
      throw error;
    }
    void runner.follow(round);
    return createTaskResult(task);
  }
}
