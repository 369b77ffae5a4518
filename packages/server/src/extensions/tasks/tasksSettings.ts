import { ConfigError, stderrLogger, type ToolLogger } from '@toolwright/core';
import { MemoryTaskStore } from './MemoryTaskStore';
import type { TaskStore } from './TaskStore';
import type { TasksOptions } from './TasksOptions';

/** `TasksOptions` checked, with their defaults filled in (see `TasksOptions` for each). */
export interface TasksSettings {
  readonly store: TaskStore;
  readonly logger: ToolLogger;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly inputFirstMs: number;
  readonly heartbeatTimeoutMs: number;
  readonly maxAttempts: number;
  /** `maxListenedTasks`. */
  readonly maxListened: number;
  /** `maxRunning.perCaller`. */
  readonly maxPerCaller: number;
  /** `maxRunning.total`. */
  readonly maxTotal: number;
  readonly queue: boolean;
  /** Whether this instance, once started, takes queued tasks (`worker` not false). */
  readonly worker: boolean;
  /** `worker.concurrency`. */
  readonly concurrency: number;
  /** `worker.pollMs`. */
  readonly pollMs: number;
}

/** Checks `options` and fills in their defaults; a value out of range or a queue the store cannot keep throws a `ConfigError` that names the option. */
export function tasksSettings(options: TasksOptions): TasksSettings {
  const ttlMs = positive('ttlMs', options.ttlMs, 3_600_000);
  const pollIntervalMs = positive('pollIntervalMs', options.pollIntervalMs, 1000);
  const store = options.store ?? new MemoryTaskStore();
  const inputFirstMs = positive('inputFirstMs', options.inputFirstMs, 250);
  const heartbeatTimeoutMs = positive('heartbeatTimeoutMs', options.heartbeatTimeoutMs, 30_000);
  const maxAttempts = positive('maxAttempts', options.maxAttempts, 3);
  const maxListened = positive('maxListenedTasks', options.maxListenedTasks, 100);
  const maxPerCaller = positive('maxRunning.perCaller', options.maxRunning?.perCaller, 1000);
  const maxTotal = positive('maxRunning.total', options.maxRunning?.total, 10_000);
  const logger = options.logger ?? stderrLogger('tasks');
  const queue = options.queue === true;
  if (queue && !(store.enqueue && store.dequeue))
    throw new ConfigError('Toolwright: tasks({ queue: true }) needs a store with a queue (enqueue and dequeue): MemoryTaskStore or RedisTaskStore of @toolwright/redis.');
  if (queue && !store.createWithin)
    logger.warn(
      'tasks({ queue: true }): the task store cannot count unfinished tasks (it has no createWithin), so maxRunning does not bound queued tasks: one caller can queue tasks until their ttlMs. Use MemoryTaskStore or RedisTaskStore of @toolwright/redis, or implement createWithin.',
    );
  const work = options.worker ?? queue;
  const concurrency = positive('worker.concurrency', typeof work === 'object' ? work.concurrency : undefined, 16);
  const pollMs = positive('worker.pollMs', typeof work === 'object' ? work.pollMs : undefined, 200);
  return {
    store,
    logger,
    ttlMs,
    pollIntervalMs,
    inputFirstMs,
    heartbeatTimeoutMs,
    maxAttempts,
    maxListened,
    maxPerCaller,
    maxTotal,
    queue,
    worker: work !== false,
    concurrency,
    pollMs,
  };
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new ConfigError(`Toolwright: tasks({ ${name} }) must be a positive whole number${name.endsWith('Ms') ? ' of milliseconds' : ''}; got ${String(value)}.`);
  return value;
}
