import type { JsonSchema } from '@toolwright/core';
import { toolTaskMode } from '@toolwright/core/internal';
import { canAccess } from '../../auth/canAccess';
import { defineExtension } from '../defineExtension';
import type { Extension } from '../Extension';
import { cancelTask } from './cancelTask';
import { DetachedRuns } from './DetachedRuns';
import { ownedTask } from './ownedTask';
import { TASKS_EXTENSION_ID, tasksNotDeclared } from './TASKS_EXTENSION_ID';
import { TaskCreator } from './TaskCreator';
import { TaskListen } from './TaskListen';
import { TaskLiveness } from './TaskLiveness';
import { TaskQueueWorker } from './TaskQueueWorker';
import { TaskRunner } from './TaskRunner';
import type { TasksOptions } from './TasksOptions';
import { tasksSettings } from './tasksSettings';
import { TaskStoreListeners } from './TaskStoreListeners';
import { TaskWatchers } from './TaskWatchers';
import { settledWithin } from './settledWithin';
import { detailedTask } from './taskWire';
import { updateTask } from './updateTask';

export { TASKS_EXTENSION_ID } from './TASKS_EXTENSION_ID';
export type { TasksOptions } from './TasksOptions';

/**
 * How long the extension's stop waits for the worker's running take and the running sweep to end:
 * a fixed bound (an extension's stop is not told the stop's drain time), of the scale of one store
 * operation's own timeout (a Redis cluster's commands time out after 2 s by default) with room for
 * the two or three a take or an undone claim makes.
 */
const STOP_WAIT_MS = 5_000;

const TASK_ID_FIELD: JsonSchema = { type: 'string', minLength: 1 };
const TASK_ID: JsonSchema = { type: 'object', properties: { taskId: TASK_ID_FIELD }, required: ['taskId'] };

/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28): a tool marked
 * `@Tool({ task: true | 'optional' | 'required' })` called by a client that declared the
 * extension answers at once with a task handle, once the store has the task; its run goes on,
 * and the client reads it with `tasks/get`, answers its questions with `tasks/update` and
 * stops it with `tasks/cancel`. Tasks are bound to the caller (client and subject): another
 * caller's `tasks/*` get -32602, as for a task that does not exist.
 *
 * @example
 * const app = await createApp({ name: 'reports', version: '1.0.0', tools: [ReportTools], extensions: [tasks({ ttlMs: 86_400_000 })] });
 */
export function tasks(options: TasksOptions = {}): Extension {
  const settings = tasksSettings(options);
  const { store, logger, heartbeatTimeoutMs } = settings;
  // Registered with the store only while something here needs them (see TaskStoreListeners): a store many apps share keeps none of the idle ones.
  const listeners = new TaskStoreListeners(store, { cancel: (taskId) => runner.abort(taskId), change: (taskId) => watchers.changed(taskId) });
  const runner = new TaskRunner(store, logger, Math.max(1, Math.floor(heartbeatTimeoutMs / 3)), listeners);
  const watchers = new TaskWatchers(store, logger, listeners);
  const detached = new DetachedRuns();
  const liveness = new TaskLiveness(settings, runner, detached);
  const worker = new TaskQueueWorker(settings, runner, detached);
  const creator = new TaskCreator(settings, runner, worker, detached);
  const listen = new TaskListen(settings, watchers, liveness);

  return defineExtension({
    id: TASKS_EXTENSION_ID,
    settings: {},
    requireClientDeclaration: true,
    requests: {
      'tasks/get': {
        params: TASK_ID,
        handle: ({ taskId }: { taskId: string }, ctx) => listeners.during(async () => detailedTask(await liveness.alive(await ownedTask(store, taskId, ctx), ctx.callTool))),
      },
      'tasks/update': {
        params: TASK_ID,
        handle: ({ taskId }: { taskId: string }, ctx) => listeners.during(() => updateTask(store, runner, taskId, ctx)),
      },
      'tasks/cancel': {
        params: TASK_ID,
        handle: ({ taskId }: { taskId: string }, ctx) => listeners.during(() => cancelTask(store, runner, taskId, ctx)),
      },
    },
    listen: {
      keys: ['taskIds'],
      open: (filter, ctx) => listen.open(filter, ctx),
    },
    start(started) {
      detached.app = started;
      // A started app writes tasks outside any request (worker, sweeper) and hears every cancel until it stops.
      const release = listeners.hold();
      const timers: ReturnType<typeof setInterval>[] = [];
      if (store.stale) timers.push(setInterval(() => void liveness.sweep(), Math.max(1, Math.floor(heartbeatTimeoutMs / 3))));
      if (settings.worker && store.dequeue) timers.push(setInterval(() => void worker.take(), settings.pollMs));
      for (const timer of timers) (timer as { unref?: () => void }).unref?.();
      return async () => {
        for (const timer of timers) clearInterval(timer);
        detached.app = undefined;
        // An id the worker is taking now goes back to the queue, and a claim the sweep is writing now is undone, before the app's
        // shutdown hooks run (they may close the store); a store that does not answer holds the stop STOP_WAIT_MS at most.
        await settledWithin(
          STOP_WAIT_MS,
          [
            { name: 'the queue worker', settled: worker.settled(), holding: () => worker.holding },
            { name: 'the sweep for stopped tasks', settled: liveness.settled(), holding: () => liveness.holding },
          ],
          logger,
        );
        // A store the app shared with others (tests, hot reloads, instances in one process) keeps nothing of it once its runs and streams here ended.
        release();
      };
    },
    async aroundToolCall(call, ctx, next) {
      // A run this extension started outside any request (worker, sweeper): the one-time id its `_meta` carries names its override.
      const detachedRun = detached.around(ctx.meta, next);
      if (detachedRun) return detachedRun;
      const { tool } = call;
      const mode = tool && toolTaskMode(tool.target, tool.methodName);
      if (!mode) return next();
      if (!ctx.clientExtension()) {
        if (mode.mode === 'optional') return next();
        throw tasksNotDeclared(`Tool '${call.name}' runs only as a task, and the client did not declare the tasks extension. Declare '${TASKS_EXTENSION_ID}' in capabilities.extensions to call it.`);
      }
      // A caller the tool's rules refuse gets the unknown-tool answer from the pipeline, and no task.
      if (tool.access && !canAccess(tool.access, ctx.authInfo)) return next();
      return listeners.during(() => creator.create(call, mode, ctx, next));
    },
  });
}
