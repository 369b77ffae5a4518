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
  /**
   * Who called, as the server verified it when the task was created (never the bearer token):
   * a run outside any request (a worker's, a sweeper's restart) runs as this caller.
   * Undefined for an anonymous caller.
   */
  readonly caller?: StoredCaller;
  /** What the calling client declared on the request that created the task, for runs outside any request. */
  readonly client?: StoredClient;
  /** Waiting on the queue for a worker (`tasks({ queue: true })`, or a restart a sweeper queued): no instance runs it yet. */
  readonly queued?: boolean;
  /**
   * Every question the client answered so far (through `tasks/update`), with its answer: a run
   * started again after its instance stopped gets them back from `ctx.elicit` and friends
   * instead of asking the client again. Dropped once the task ends.
   */
  readonly answers?: Record<string, { readonly request: TaskInputRequest; readonly response: unknown }>;
}

/** The caller of a task as the verifier described it when the task was created: `AuthInfo` without its token. */
export interface StoredCaller {
  readonly clientId: string;
  /** The scopes granted then (rules and guards of a later run check these). */
  readonly scopes: readonly string[];
  /** Seconds since the epoch: a run outside a request does not start after it. */
  readonly expiresAt?: number;
  /** The resource (RFC 8707) the token was issued for. */
  readonly resource?: string;
  /** The verifier's claims (`sub`, `roles`, ...), as JSON. */
  readonly extra?: Record<string, unknown>;
}

/** The client's side of the request that created a task (its 2026-07-28 envelope). */
export interface StoredClient {
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly info?: { readonly name: string; readonly version: string; readonly title?: string };
  readonly logLevel?: string;
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
  /**
   * Stores a new task as `create` does, unless the store already holds `bounds.perCaller`
   * unfinished tasks of its caller (`owner`), or `bounds.total` in all: then it stores nothing
   * and resolves with the bound reached and the count it found. Unfinished: neither completed,
   * failed nor cancelled, and not expired (queued, running or waiting for input), whichever
   * instance created it (`create` counts too). Counted by the store, in the same atomic step as
   * the write, so the bound holds across every instance sharing the store; a task leaves the
   * count when it ends (an `update` to a terminal status) or expires. `tasks({ queue: true })`
   * creates its tasks with it (`maxRunning`); without it, queued tasks are bounded by their TTL only.
   */
  createWithin?(task: StoredTask, bounds: { readonly perCaller: number; readonly total: number }): Promise<{ readonly bound: 'perCaller' | 'total'; readonly count: number } | undefined>;
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
  /**
   * Puts a task (already stored, `queued: true`) on the queue that workers take from. A store
   * without a queue runs each task on the instance that accepted it (and restarts it where a
   * sweeper or a poll finds it stopped).
   */
  enqueue?(taskId: string): Promise<void>;
  /** Takes the id of the next queued task (each id goes to one taker), or undefined when the queue is empty. */
  dequeue?(): Promise<string | undefined>;
  /**
   * Puts back at the front of the queue an id a worker took and does not run (its app stopped
   * as it took it): it was next, and stays next. A store without it gets the id back through
   * `enqueue`, at the end of its queue.
   */
  requeue?(taskId: string): Promise<void>;
  /**
   * The ids of `working` tasks whose `heartbeatAt` is before `before` (epoch ms), at most `limit`:
   * what a sweeper checks, so that a task whose instance stopped ends (or runs again) even when
   * nobody polls it.
   */
  stale?(before: number, limit: number): Promise<string[]>;
}

export const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);
