import type { ToolLogger } from '@toolwright/core';
import type { TaskStore } from './TaskStore';

export interface TasksOptions {
  /** Where tasks are kept. Default: a `MemoryTaskStore` (this process only). */
  readonly store?: TaskStore;
  /** How long a task stays readable after its last change, in ms (the `ttlMs` clients see). Default 1 hour. */
  readonly ttlMs?: number;
  /** How often clients should poll `tasks/get`, in ms (`pollIntervalMs`). Default 1000. */
  readonly pollIntervalMs?: number;
  /**
   * How long a `working` task may go without a sign of life from the instance running it
   * (the instance died or lost the store), in ms, before it runs again (restartable) or is
   * marked `failed`: on the next `tasks/get` on any instance, or by the sweep of any started
   * instance, whichever comes first. The runner renews it every third of that, and sweeps
   * run as often. Default 30000.
   */
  readonly heartbeatTimeoutMs?: number;
  /**
   * For `@Tool({ task: { inputFirst: true } })`: how long the first round may take to ask its
   * questions (answered as a plain round trip, no task) before it becomes a task, in ms. Default 250.
   */
  readonly inputFirstMs?: number;
  /**
   * How many runs a restartable task (`@Tool({ task: { restartable: true } })`) may have in all:
   * when the instance running it stops, the next `tasks/get` on any instance runs the call again
   * from the start, until this many runs began; then it is marked `failed`. Default 3.
   */
  readonly maxAttempts?: number;
  /**
   * Most tasks one caller (client and subject; every anonymous caller counts as one, so the
   * per-caller bound is also the anonymous callers' bound together) may have going at once, and
   * most in all. A task tool called past either gets an `isError` result naming the bound, and
   * no task. What counts as going:
   * - by default, the task runs this instance has going (counted here, per instance);
   * - with `queue: true`, the unfinished tasks in the store (queued, running or waiting for
   *   input, on any instance sharing it), counted by the store itself (`TaskStore.createWithin`),
   *   so the bounds hold across instances; a task leaves the count when it completes, fails, is
   *   cancelled or expires. Runs a worker takes from the queue are bounded by `worker.concurrency`.
   *
   * Default `{ perCaller: 1000, total: 10_000 }`.
   */
  readonly maxRunning?: { readonly perCaller?: number; readonly total?: number };
  /** Most task ids one `subscriptions/listen` stream may name. Default 100. */
  readonly maxListenedTasks?: number;
  /** Where failures of task runs are logged. Default: stderr. */
  readonly logger?: ToolLogger;
  /**
   * Queue new tasks for workers instead of running them on the instance that accepted them:
   * the task is stored (`working`), its id put on the store's queue, and the handle returned;
   * a worker (any started instance with `worker` on, or `toolwright worker`) takes it and runs
   * it as the caller who created it. Needs a store with a queue (`MemoryTaskStore`,
   * `RedisTaskStore`). `inputFirst` tools then ask their first questions through the task too.
   * Default false.
   */
  readonly queue?: boolean;
  /**
   * Whether this instance, once started (`listen` starts it; `toolwright worker` starts an app
   * without serving), takes queued tasks and runs them, at most `concurrency` task runs at once
   * (runs started by its own requests count), looking at the queue every `pollMs`. Every started
   * instance also sweeps: a `working` task whose instance went silent for `heartbeatTimeoutMs`
   * runs again here (restartable, with runs left; a queued one no worker took) or is marked
   * failed, whether or not anybody polls it. Default: on (`{ concurrency: 16, pollMs: 200 }`)
   * when `queue` is, else off (nothing to take: the sweeps go on all the same).
   */
  readonly worker?: boolean | { readonly concurrency?: number; readonly pollMs?: number };
}
