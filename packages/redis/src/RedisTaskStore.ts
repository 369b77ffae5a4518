import { createHash } from 'node:crypto';
import type { StoredTask, TaskStatus, TaskStore } from '@toolwright/server';
import type { Redis } from 'ioredis';
import { ToolwrightError } from '@toolwright/core';
import { runCommand } from './runCommand';

/**
 * Keeps the sets of unfinished tasks, in all (KEYS[3]) and of the task's caller (KEYS[4]), scored
 * by when each task's key expires on the Redis clock (the one clock every instance shares): a
 * member whose score passed is an expired task, pruned before counting and on every write that
 * adds one (so a set some traffic keeps alive holds no expired tasks for long). `counted` adds
 * an unfinished task (`open` '1') and takes out one that ended (`open` ''); each set expires
 * with its longest-lived task.
 */
const OPEN = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local function unfinished(k)
  redis.call('ZREMRANGEBYSCORE', KEYS[k], '-inf', now)
  return redis.call('ZCARD', KEYS[k])
end
local function counted(open, ttl, id)
  if open == '' then
    redis.call('ZREM', KEYS[3], id)
    redis.call('ZREM', KEYS[4], id)
    return
  end
  for k = 3, 4 do
    unfinished(k)
    redis.call('ZADD', KEYS[k], now + ttl, id)
    if redis.call('PTTL', KEYS[k]) < ttl then redis.call('PEXPIRE', KEYS[k], ttl) end
  end
end
-- Adds a working task to the set of working tasks (KEYS[2]), which expires with its longest-lived task.
local function working(heartbeat, ttl, id)
  redis.call('ZADD', KEYS[2], heartbeat, id)
  if redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], ttl) end
end
`;

/**
 * KEYS: the queue, the task's key. ARGV: the task id. Queues a stored task, at the end of the
 * queue (`RPUSH`) or, for an id a worker gives back, at its front (`LPUSH`); the queue expires
 * with the longest-lived task it holds (so a queue no worker takes from does not outlive its
 * tasks). A task whose key is gone (it expired) is not queued. Returns 1 when queued, else 0.
 */
const queueScript = (push: 'RPUSH' | 'LPUSH') => `
local ttl = redis.call('PTTL', KEYS[2])
if ttl <= 0 then return 0 end
redis.call('${push}', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1
`;
const ENQUEUE = queueScript('RPUSH');
const REQUEUE = queueScript('LPUSH');

/**
 * Sets the key to the new JSON only if it still holds the JSON the change was computed from,
 * and keeps the set of working tasks (scored by heartbeat) and the sets of unfinished tasks in
 * step: ARGV[4] is the heartbeat of a working task, '' for any other; ARGV[6] '1' for an
 * unfinished task, '' for one that ended.
 */
const COMPARE_AND_SET = `${OPEN}
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  if ARGV[4] == '' then redis.call('ZREM', KEYS[2], ARGV[5]) else working(ARGV[4], tonumber(ARGV[3]), ARGV[5]) end
  counted(ARGV[6], tonumber(ARGV[3]), ARGV[5])
  return 1
end
return 0`;
const MAX_RACES = 50;
/** JSON-RPC's internal error: an error carrying it reaches the client of `tasks/*` with its message (Redis is unreachable, and why), not only "Internal error". */
const INTERNAL_ERROR = -32603;
/** The longest task id looked up: ids are 22 characters (`newTaskId`); a longer one from the wire is no task's, and never becomes a key. */
const MAX_TASK_ID = 256;
/**
 * Stores a new task (never over an existing key) and, when it is working, adds it to the set of
 * working tasks, and counts it when unfinished, in one step. With bounds (ARGV[6] most per
 * caller, ARGV[7] most in all; '' for none), stores nothing past either and returns
 * [bound, count]. Returns 1 when stored, 0 when the id is taken.
 */
const CREATE = `${OPEN}
if ARGV[6] ~= '' then
  local mine = unfinished(4)
  if mine >= tonumber(ARGV[6]) then return {'perCaller', mine} end
  local all = unfinished(3)
  if all >= tonumber(ARGV[7]) then return {'total', all} end
end
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then
  if ARGV[3] ~= '' then working(ARGV[3], tonumber(ARGV[2]), ARGV[4]) end
  counted(ARGV[5], tonumber(ARGV[2]), ARGV[4])
  return 1
end
return 0`;

export interface RedisTaskStoreOptions {
  /** The connection that runs the commands (a cluster's `redis`). */
  readonly redis: Redis;
  /** The key and channel prefix (a cluster's `prefix`). Default 'toolwright:'. */
  readonly prefix?: string;
}

/**
 * The tasks of every instance in Redis (`tasks({ store })`): one key per task
 * (`<prefix>task:<id>`, JSON) expiring with the task, so any instance, and one started later,
 * answers `tasks/get`, `tasks/update` and `tasks/cancel` for a task another one created.
 * Changes are compare-and-set (a racing writer makes the change run again on what won); a
 * cancel is published on `<prefix>task-cancel` so the instance running the task aborts it (once
 * it reads the task cancelled: a cancel published for a task that is not aborts nothing), and
 * the id of each written task on `<prefix>task-change` so any instance's `subscriptions/listen`
 * streams hear of it (and read it). Working tasks are also in the sorted set
 * `<prefix>task-working` (scored by heartbeat), which sweepers read to find the ones whose
 * instance stopped; queued tasks wait in the list `<prefix>task-queue` for a worker. Unfinished
 * tasks (not completed, failed or cancelled) are counted in the sorted sets `<prefix>task-open`
 * and `<prefix>task-open:<caller digest>`, scored by expiry, so `createWithin` (what
 * `tasks({ queue: true, maxRunning })` uses) bounds them per caller and in all, atomically,
 * across every instance; an ended task leaves them at once, an expired one when next counted.
 * Every one of these sets, and the queue, expires with the longest-lived task it holds.
 *
 * @example
 * const cluster = await createRedisCluster({ url: process.env.REDIS_URL });
 * const app = await createApp({ ..., extensions: [tasks({ store: new RedisTaskStore(cluster) })] });
 */
export class RedisTaskStore implements TaskStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private subscriber: Redis | undefined;
  private readonly listeners = new Set<(taskId: string) => void>();
  private readonly watchers = new Set<(taskId: string) => void>();

  constructor(options: RedisTaskStoreOptions) {
    this.redis = options.redis;
    this.prefix = options.prefix ?? 'toolwright:';
  }

  async create(task: StoredTask): Promise<void> {
    await this.store(task, '', '');
  }

  async createWithin(task: StoredTask, bounds: { readonly perCaller: number; readonly total: number }): Promise<{ readonly bound: 'perCaller' | 'total'; readonly count: number } | undefined> {
    return this.store(task, String(bounds.perCaller), String(bounds.total));
  }

  private async store(task: StoredTask, perCaller: string, total: string): Promise<{ readonly bound: 'perCaller' | 'total'; readonly count: number } | undefined> {
    const score = task.status === 'working' ? String(heartbeatOf(task)) : '';
    const keys = [this.key(task.taskId), this.working, this.open, this.openOf(task.owner)];
    const stored = await runCommand(() => this.redis.eval(CREATE, keys.length, ...keys, JSON.stringify(task), ttlOf(task), score, task.taskId, unfinished(task), perCaller, total), INTERNAL_ERROR);
    if (Array.isArray(stored)) return { bound: stored[0] === 'total' ? 'total' : 'perCaller', count: Number(stored[1]) };
    if (stored !== 1) throw new ToolwrightError(`@toolwright/redis: task id ${task.taskId} is taken; task ids must be new`);
    this.announce(task);
    return undefined;
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    if (taskId.length > MAX_TASK_ID) return undefined;
    const json = await runCommand(() => this.redis.get(this.key(taskId)), INTERNAL_ERROR);
    return json === null ? undefined : taskOf(taskId, json);
  }

  async update(taskId: string, change: (task: StoredTask) => StoredTask | undefined): Promise<StoredTask | undefined> {
    if (taskId.length > MAX_TASK_ID) return undefined;
    const key = this.key(taskId);
    for (let race = 0; race < MAX_RACES; race++) {
      const json = await runCommand(() => this.redis.get(key), INTERNAL_ERROR);
      if (json === null) return undefined;
      const task = taskOf(taskId, json);
      const next = change(task);
      if (!next) return task;
      const score = next.status === 'working' ? String(heartbeatOf(next)) : '';
      const keys = [key, this.working, this.open, this.openOf(next.owner)];
      const written = await runCommand(() => this.redis.eval(COMPARE_AND_SET, keys.length, ...keys, json, JSON.stringify(next), ttlOf(next), score, taskId, unfinished(next)), INTERNAL_ERROR);
      if (written === 1) {
        this.announce(next);
        return next;
      }
    }
    throw new ToolwrightError(`@toolwright/redis: task ${taskId} changed ${MAX_RACES} times while one change was being written; try again`);
  }

  async publishCancel(taskId: string): Promise<void> {
    await runCommand(() => this.redis.publish(this.channel, taskId), INTERNAL_ERROR);
  }

  onCancel(listener: (taskId: string) => void): () => void {
    this.listeners.add(listener);
    this.subscribe();
    return () => this.listeners.delete(listener);
  }

  onChange(listener: (taskId: string) => void): () => void {
    this.watchers.add(listener);
    this.subscribe();
    return () => this.watchers.delete(listener);
  }

  async enqueue(taskId: string): Promise<void> {
    await runCommand(() => this.redis.eval(ENQUEUE, 2, this.queue, this.key(taskId), taskId), INTERNAL_ERROR);
  }

  async requeue(taskId: string): Promise<void> {
    await runCommand(() => this.redis.eval(REQUEUE, 2, this.queue, this.key(taskId), taskId), INTERNAL_ERROR);
  }

  async dequeue(): Promise<string | undefined> {
    return (await runCommand(() => this.redis.lpop(this.queue), INTERNAL_ERROR)) ?? undefined;
  }

  async stale(before: number, limit: number): Promise<string[]> {
    const ids = await runCommand(() => this.redis.zrangebyscore(this.working, '-inf', `(${before}`, 'LIMIT', 0, limit), INTERNAL_ERROR);
    if (ids.length === 0) return ids;
    // Tasks that expired (their key gone) leave the set here.
    const present = await runCommand(() => Promise.all(ids.map((id) => this.redis.exists(this.key(id)))), INTERNAL_ERROR);
    const gone = ids.filter((_, i) => present[i] === 0);
    if (gone.length > 0) await runCommand(() => this.redis.zrem(this.working, ...gone), INTERNAL_ERROR);
    return ids.filter((_, i) => present[i] === 1);
  }

  /** Publishes the id of a written task when any listener is registered here (a tasks extension holds one while its app runs, a run or a listen stream goes on, or a request writes tasks). */
  private announce(task: StoredTask): void {
    if (this.watchers.size === 0) return;
    this.redis.publish(this.changes, task.taskId).catch(() => undefined);
  }

  private subscribe(): void {
    if (this.subscriber) return;
    // Subscribes only, so it queues its subscription until connected (a cluster's connection has no offline queue: it would refuse it while still connecting).
    // It subscribes again itself on every reconnection, not with ioredis's autoResubscribe: that one's SUBSCRIBE has no
    // handler, so a close() while it is unanswered (Redis just back) would reject it unhandled ("Connection is closed.").
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true, commandTimeout: undefined, autoResubscribe: false });
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) void this.heardCancel(message);
      else if (channel === this.changes) for (const w of this.watchers) w(message);
    });
    subscriber.on('error', () => undefined);
    let inFlight = false;
    const listen = () => {
      inFlight = true;
      subscriber
        .subscribe(this.channel, this.changes)
        .catch(() => undefined)
        .finally(() => (inFlight = false));
    };
    // Connected (again): subscribes, unless the subscription queued below is the one just sent.
    subscriber.on('ready', () => void (inFlight || listen()));
    listen();
  }

  /**
   * A cancel is believed once the task is cancelled in Redis (`tasks/cancel` writes that before
   * it publishes): whoever can publish on the channel could otherwise abort any running task.
   */
  private async heardCancel(taskId: string): Promise<void> {
    if (this.listeners.size === 0 || taskId.length > MAX_TASK_ID) return;
    const task = await this.get(taskId).catch(() => undefined);
    if (task?.status === 'cancelled') for (const l of this.listeners) l(taskId);
  }

  /** Closes the subscriber it opened for cancels (the command connection is the caller's). */
  async close(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }

  private key(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  private get channel(): string {
    return `${this.prefix}task-cancel`;
  }

  private get changes(): string {
    return `${this.prefix}task-change`;
  }

  /** The sorted set of working tasks, scored by their last heartbeat (what `stale` reads). */
  private get working(): string {
    return `${this.prefix}task-working`;
  }

  /** The list workers take queued task ids from. */
  private get queue(): string {
    return `${this.prefix}task-queue`;
  }

  /** The sorted set of unfinished tasks, scored by when each expires (what `createWithin` counts in all). */
  private get open(): string {
    return `${this.prefix}task-open`;
  }

  /** The same for one caller's tasks: its owner hashed, so no caller's text becomes a key. */
  private openOf(owner: string): string {
    return `${this.prefix}task-open:${createHash('sha256').update(owner).digest('hex').slice(0, 32)}`;
  }
}

const STATUSES: ReadonlySet<string> = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/**
 * The task stored as `json`, checked enough that no reader trips on it: another instance (of
 * another version, or compromised) may have written anything. A malformed one fails with an
 * error that says so, as the one task it is (the server keeps serving every other).
 */
function taskOf(taskId: string, json: string): StoredTask {
  let task: unknown;
  try {
    task = JSON.parse(json);
  } catch {
    task = undefined;
  }
  const t = task as Partial<Record<keyof StoredTask, unknown>> | undefined;
  if (
    typeof t !== 'object' ||
    t === null ||
    Array.isArray(t) ||
    t.taskId !== taskId ||
    typeof t.owner !== 'string' ||
    typeof t.status !== 'string' ||
    !STATUSES.has(t.status) ||
    typeof t.expiresAt !== 'number' ||
    typeof t.ttlMs !== 'number' ||
    typeof t.pollIntervalMs !== 'number' ||
    typeof t.createdAt !== 'string' ||
    typeof t.lastUpdatedAt !== 'string' ||
    typeof t.tool !== 'string'
  ) {
    throw Object.assign(new ToolwrightError(`@toolwright/redis: task ${taskId.slice(0, 64)} in Redis is malformed (not a task this version wrote); it cannot be read`), { code: INTERNAL_ERROR });
  }
  return task as StoredTask;
}

const ENDED: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** '1' when the task is unfinished (counted by `createWithin`), '' once it ended. */
function unfinished(task: StoredTask): string {
  return ENDED.has(task.status) ? '' : '1';
}

/** The task's last sign of life, epoch ms. */
function heartbeatOf(task: StoredTask): number {
  return task.heartbeatAt ?? Date.parse(task.lastUpdatedAt);
}

/** Milliseconds until the task expires (at least 1: Redis refuses PX 0). */
function ttlOf(task: StoredTask): number {
  return Math.max(1, Math.ceil(task.expiresAt - Date.now()));
}
