/** Where a task is in its life (SEP-2663). The last three are terminal: nothing changes a task after them. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A question the task waits on (a 2026-07-28 input request: elicitation, sampling, roots). */
export interface TaskInputRequest {
  readonly method: string;
  readonly params?: object;
}

/** One task as a `TaskStore` keeps it: plain JSON, so any store can serialize it. */
export interface StoredTask {
  readonly taskId: string;
  /** The caller the task is bound to (client and subject); '' for an anonymous caller. */
  readonly owner: string;
  readonly status: TaskStatus;
  /** The last progress or log message of the run, for `tasks/get`. */
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** How long the task stays readable after its last change. */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** Epoch milliseconds after which the store may forget the task (`lastUpdatedAt` + `ttlMs`). */
  readonly expiresAt: number;
  /** The tool called and its arguments, to run it again after input arrives. */
  readonly tool: string;
  readonly arguments?: Record<string, unknown>;
  /** The questions not answered yet (status `input_required`). */
  readonly inputRequests?: Record<string, TaskInputRequest>;
  /** The answers gathered for the pending round. */
  readonly inputResponses?: Record<string, unknown>;
  /** The sealed state of the pending round (what the run asked and what it was told before). */
  readonly requestState?: string;
  /** The tool's result (status `completed`; `isError` results too). */
  readonly result?: Record<string, unknown>;
  /** Epoch milliseconds of the last sign of life of the instance running it (status `working`). */
  readonly heartbeatAt?: number;
  /** The protocol error that ended the task (status `failed`). */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** Whether another instance may run the call again from the start when the instance running it stops (`@Tool({ task: { restartable: true } })`). */
  readonly restartable?: boolean;
  /** Which run of the call this is: 1, and one more each time an instance restarts it. */
  readonly attempt?: number;
  /** The W3C `traceparent` of the `tools/call` span that created it, which each run's span links to (when traced). */
  readonly traceparent?: string;
}

/**
 * Where an app keeps its tasks, so that any instance can answer `tasks/get`, `tasks/update` and
 * `tasks/cancel` for a task another one created. `MemoryTaskStore` keeps them in the process;
 * `@toolwright/redis` has `RedisTaskStore` for several instances and restarts.
 */
export interface TaskStore {
  /** Stores a new task; resolves once a `get` anywhere would find it. */
  create(task: StoredTask): Promise<void>;
  /** The task, or undefined when there is none (or it expired). */
  get(taskId: string): Promise<StoredTask | undefined>;
  /**
   * Changes a task atomically: `change` gets the stored task and returns its next version, or
   * undefined to leave it as it is (it may run more than once when writers race). Resolves
   * with the task as stored afterwards; undefined when there is none.
   */
  update(taskId: string, change: (task: StoredTask) => StoredTask | undefined): Promise<StoredTask | undefined>;
  /** Tells every instance sharing the store that `taskId` was cancelled (so the one running it stops). */
  publishCancel?(taskId: string): Promise<void>;
  /** Listens for `publishCancel` from any instance; returns the means to stop listening. */
  onCancel?(listener: (taskId: string) => void): () => void;
  /**
   * Listens for the ids of the tasks written from now on (`create` and each `update` that changed
   * one), by any instance sharing the store; the listener reads the ones it cares about. What
   * `subscriptions/listen` streams send as `notifications/tasks`. Returns the means to stop
   * listening. Without it, clients poll.
   */
  onChange?(listener: (taskId: string) => void): () => void;
}

export const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);
