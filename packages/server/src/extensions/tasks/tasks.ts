import { ConfigError, stderrLogger, ToolwrightError, type AuthInfo, type JsonSchema, type ToolLogger } from '@toolwright/core';
import { toolErrorResult, toolTaskMode } from '@toolwright/core/internal';
import { canAccess } from '../../auth/canAccess';
import { defineExtension } from '../defineExtension';
import type { Extension, ExtensionApp, ExtensionContext, ToolCallRequest, ToolRunOverride } from '../Extension';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, LOG_LEVEL_META_KEY } from '../../sdk/sdk';
import { roundCaller } from '../../roundtrip/roundCaller';
import { knownAnswers, type InputRequest } from '../../roundtrip/InputRound';
import { RoundTripError } from '../../roundtrip/RoundTripError';
import { ErrorCodes, ProtocolError } from '../../sdk/ProtocolError';
import { MemoryTaskStore } from './MemoryTaskStore';
import { newTaskId } from './newTaskId';
import { TaskRunner, touched, type TaskRun } from './TaskRunner';
import { activeTraceparent } from './taskSpan';
import { TaskStoreListeners } from './TaskStoreListeners';
import { TaskWatchers } from './TaskWatchers';
import { TERMINAL, type StoredCaller, type StoredClient, type StoredTask, type TaskInputRequest, type TaskStore } from './TaskStore';
import { ACK, createTaskResult, detailedTask } from './taskWire';

/** The identifier of the tasks extension (SEP-2663). */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** JSON-RPC error of a routing header that disagrees with the body (SEP-2243). */
const HEADER_MISMATCH = -32020;

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

/** The `_meta` key of a run this extension started outside any request (its value: a one-time id only this process knows). */
const RUN_META = 'dev.toolwright/task-run';

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
  // Registered with the store only while something here needs them (see TaskStoreListeners): a store many apps share keeps none of the idle ones.
  const listeners = new TaskStoreListeners(store, { cancel: (taskId) => runner.abort(taskId), change: (taskId) => watchers.changed(taskId) });
  const runner = new TaskRunner(store, logger, Math.max(1, Math.floor(heartbeatTimeoutMs / 3)), listeners);
  const watchers = new TaskWatchers(store, logger, listeners);
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
  /** The app, once started: runs calls outside any request (worker, sweeper). */
  let app: ExtensionApp | undefined;
  /** What each run started outside a request changes about its call, by the one-time id its `_meta` carries. */
  const detachedRuns = new Map<string, ToolRunOverride>();

  /** Runs `task`'s call outside any request, as the caller who created it (undefined before the app started). */
  const detached = (task: StoredTask): TaskRun | undefined => {
    const host = app;
    if (!host) return undefined;
    return (override) => {
      const nonce = newTaskId();
      detachedRuns.set(nonce, override);
      const call = { name: task.tool, ...(task.arguments && { arguments: task.arguments }), _meta: { ...clientMeta(task.client), [RUN_META]: nonce } };
      return host.callTool(call, authOf(task.caller)).finally(() => detachedRuns.delete(nonce));
    };
  };

  /**
   * The task, or what becomes of it when the instance running it has gone silent for longer than
   * the heartbeat timeout: a restartable one with runs left is claimed here (compare-and-set: one
   * instance wins) and its call runs again from the start; any other is marked failed.
   */
  const alive = async (task: StoredTask, callTool?: ExtensionContext['callTool']): Promise<StoredTask> => {
    const now = Date.now();
    const stale = (t: StoredTask) => t.status === 'working' && now - (t.heartbeatAt ?? now) > heartbeatTimeoutMs;
    if (!stale(task) || runner.runs(task.taskId)) return task;
    // The poller's own call path when it polls (the same caller: tasks are bound to it), else a run outside any request.
    const runs = callTool
      ? (t: StoredTask): TaskRun =>
          (override) =>
            callTool({ name: t.tool, ...(t.arguments && { arguments: t.arguments }) }, override)
      : detached;
    const canRun = runs(task) !== undefined;
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
    const run = claimed && next === claimed ? runs(claimed) : undefined;
    if (claimed && run) runner.start(claimed, run);
    return next ?? task;
  };

  /** Takes queued tasks while this instance has room for more runs. */
  let taking = false;
  const take = async (): Promise<void> => {
    if (taking || !app || !store.dequeue) return;
    taking = true;
    try {
      while (runner.active < concurrency) {
        const id = await store.dequeue();
        if (id === undefined) return;
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
        const run = claimed && detached(claimed);
        if (claimed && run) runner.start(claimed, run);
      }
    } catch (error) {
      logger.warn('tasks: the queue could not be read', error);
    } finally {
      taking = false;
    }
  };

  /** Ends (or runs again) the tasks whose instance went silent, whether or not anybody polls them. */
  let sweeping = false;
  const sweep = async (): Promise<void> => {
    if (sweeping || !store.stale) return;
    sweeping = true;
    try {
      const ids = await store.stale(Date.now() - heartbeatTimeoutMs, 100);
      for (const id of ids) {
        if (runner.runs(id)) continue;
        const task = await store.get(id);
        if (task) await alive(task);
      }
    } catch (error) {
      logger.warn('tasks: the sweep for stopped tasks failed', error);
    } finally {
      sweeping = false;
    }
  };

  /** Why a new task of `owner` may not run here now (a bound of `maxRunning` reached), or undefined. */
  const tooBusy = (owner: string, tool: string): string | undefined => {
    const mine = runner.activeFor(owner);
    if (mine >= maxPerCaller)
      return `Tool '${tool}' was not started: this caller has ${tasksOf(mine)} running on this server, the most allowed (the server's tasks({ maxRunning: { perCaller } }) raises it). Wait for one to finish or cancel one (tasks/cancel), then call it again.`;
    if (runner.active >= maxTotal)
      return `Tool '${tool}' was not started: this server runs ${tasksOf(runner.active)}, the most allowed (the server's tasks({ maxRunning: { total } }) raises it). Call it again later.`;
    return undefined;
  };

  /** Why a queued task was not made: the bound of `maxRunning` the store found reached. */
  const tooManyQueued = ({ bound, count }: { readonly bound: 'perCaller' | 'total'; readonly count: number }, tool: string): string =>
    bound === 'perCaller'
      ? `Tool '${tool}' was not started: this caller has ${tasksOf(count, 'unfinished ')} (queued, running or waiting for input), the most allowed (the server's tasks({ maxRunning: { perCaller } }) raises it). Wait for one to finish or cancel one (tasks/cancel), then call it again.`
      : `Tool '${tool}' was not started: the task store holds ${tasksOf(count, 'unfinished ')}, the most allowed (the server's tasks({ maxRunning: { total } }) raises it). Call it again later.`;

  /** The caller's own task `taskId`, after the routing header check; -32602 for any other. */
  const owned = async (taskId: string, ctx: ExtensionContext): Promise<StoredTask> => {
    checkRoutingHeader(ctx, taskId);
    const task = await store.get(taskId);
    if (!task || task.owner !== ownerOf(ctx)) {
      throw new ProtocolError(
        ErrorCodes.InvalidParams,
        `No task '${taskId.slice(0, 64)}' for this caller: it does not exist, it expired, or another caller created it. Use the taskId that tools/call returned.`,
      );
    }
    return task;
  };

  /** Makes the task of a task tool's call and answers with its handle (or, `inputFirst`, the first round's questions). */
  const createTask = async (
    call: ToolCallRequest,
    mode: NonNullable<ReturnType<typeof toolTaskMode>>,
    ctx: ExtensionContext,
    next: (override?: ToolRunOverride) => Promise<Record<string, unknown>>,
  ): Promise<Record<string, unknown>> => {
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
    if (queue) {
      // Stored, then queued: a worker takes it; should the queue refuse the id, a sweeper runs it once it looks stalled.
      const queued: StoredTask = { ...task, queued: true };
      // Counted by the store, with the write: the bounds hold across every instance queuing into it.
      if (store.createWithin) {
        const reached = await store.createWithin(queued, { perCaller: maxPerCaller, total: maxTotal });
        if (reached) return toolErrorResult(tooManyQueued(reached, call.name));
      } else await store.create(queued);
      await store.enqueue!(task.taskId).catch((error: unknown) => logger.warn(`task ${task.taskId}: it could not be queued; a sweeper starts it`, error));
      if (app && work !== false) void take();
      return createTaskResult(queued);
    }

    const busy = tooBusy(task.owner, call.name);
    if (busy) return toolErrorResult(busy);
    const round = runner.begin(task, next);
    if (mode.inputFirst) {
      // Questions asked before the method does anything else go out as a plain round trip, without a task.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const window = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, inputFirstMs, undefined)));
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
  };

  return defineExtension({
    id: TASKS_EXTENSION_ID,
    settings: {},
    requireClientDeclaration: true,
    requests: {
      'tasks/get': {
        params: TASK_ID,
        handle: ({ taskId }: { taskId: string }, ctx) => listeners.during(async () => detailedTask(await alive(await owned(taskId, ctx), ctx.callTool))),
      },
      'tasks/update': {
        // The SDK takes `inputResponses` out of the params (ctx.inputResponses) and checks it is an object.
        params: TASK_ID,
        handle: ({ taskId }: { taskId: string }, ctx) =>
          listeners.during(async () => {
            const current = await owned(taskId, ctx);
            // Refused before the store changes: the answers stay pending for a 2026-07-28 request to give again.
            const callTool = ctx.callTool;
            if (!callTool) throw new ProtocolError(ErrorCodes.InvalidRequest, 'tasks/update answers a task only on 2026-07-28 requests; the task still waits for its answers.');
            const inputResponses = ctx.inputResponses ?? {};
            checkAnswers(current, inputResponses);
            let resumed: StoredTask | undefined;
            await store.update(taskId, (task) => {
              resumed = undefined;
              const next = answered(task, inputResponses);
              if (next?.status === 'working') resumed = next;
              return next;
            });
            if (resumed) {
              const task = resumed;
              runner.start(task, (override) => callTool({ name: task.tool, ...(task.arguments && { arguments: task.arguments }) }, override));
            }
            return ACK;
          }),
      },
      'tasks/cancel': {
        params: TASK_ID,
        handle: ({ taskId }: { taskId: string }, ctx) =>
          listeners.during(async () => {
            const task = await owned(taskId, ctx);
            if (TERMINAL.has(task.status)) return ACK;
            await store.update(taskId, (t) =>
              TERMINAL.has(t.status)
                ? undefined
                : touched(t, { status: 'cancelled', queued: undefined, inputRequests: undefined, inputResponses: undefined, requestState: undefined, answers: undefined }),
            );
            runner.abort(taskId);
            await store.publishCancel?.(taskId);
            return ACK;
          }),
      },
    },
    listen: {
      keys: ['taskIds'],
      async open(filter, ctx) {
        const ids = filter.taskIds;
        if (!Array.isArray(ids) || !ids.every((id): id is string => typeof id === 'string')) {
          throw new ProtocolError(ErrorCodes.InvalidParams, 'subscriptions/listen: notifications.taskIds must be an array of task ids (strings) that tools/call returned.');
        }
        if (!ctx.clientExtension()) {
          throw new ProtocolError(
            ErrorCodes.MissingClientCapability,
            `Task status notifications belong to extension '${TASKS_EXTENSION_ID}', which the listen request did not declare. Declare it in capabilities.extensions to use notifications.taskIds.`,
            { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } },
          );
        }
        const wanted = [...new Set(ids)];
        if (wanted.length > maxListened)
          throw new ProtocolError(ErrorCodes.InvalidParams, `subscriptions/listen names ${wanted.length} task ids; at most ${maxListened} are served per stream. Open several streams.`);
        const owner = roundCaller(ctx.authInfo) ?? '';
        const found = await Promise.all(wanted.map((id) => store.get(id)));
        // Tasks that do not exist or belong to another caller are left out of the acknowledgement, as tasks/get refuses them.
        const mine = found.filter((task): task is StoredTask => task !== undefined && task.owner === owner);
        const sent = new Map<string, string>();
        const send = (task: StoredTask) => {
          const version = `${task.status}|${task.lastUpdatedAt}|${task.statusMessage ?? ''}`;
          if (sent.get(task.taskId) === version) return;
          sent.set(task.taskId, version);
          const { resultType: _result, ...detailed } = detailedTask(task);
          ctx.notify('notifications/tasks', detailed);
        };
        const stop = watchers.watch(
          mine.map((t) => t.taskId),
          send,
        );
        // The state each task has now, so that a client that listens after its last poll misses nothing.
        for (const task of mine) send(task);
        // A listener does not poll: the tasks whose instance stopped are checked as tasks/get would, every heartbeat timeout.
        const check = setInterval(() => {
          for (const id of sent.keys()) {
            void store
              .get(id)
              .then((task) => task && alive(task))
              .catch((error: unknown) => logger.warn(`task ${id}: its liveness could not be checked`, error));
          }
        }, heartbeatTimeoutMs);
        (check as { unref?: () => void }).unref?.();
        return {
          honored: mine.length > 0 ? { taskIds: mine.map((t) => t.taskId) } : {},
          close: () => {
            clearInterval(check);
            stop();
          },
        };
      },
    },
    start(started) {
      app = started;
      // A started app writes tasks outside any request (worker, sweeper) and hears every cancel until it stops.
      const release = listeners.hold();
      const timers: ReturnType<typeof setInterval>[] = [];
      if (store.stale) timers.push(setInterval(() => void sweep(), Math.max(1, Math.floor(heartbeatTimeoutMs / 3))));
      if (work !== false && store.dequeue) timers.push(setInterval(() => void take(), pollMs));
      for (const timer of timers) (timer as { unref?: () => void }).unref?.();
      return () => {
        for (const timer of timers) clearInterval(timer);
        app = undefined;
        // A store the app shared with others (tests, hot reloads, instances in one process) keeps nothing of it once its runs and streams here ended.
        release();
      };
    },
    async aroundToolCall(call, ctx, next) {
      // A run this extension started outside any request (worker, sweeper): the one-time id names its override.
      const nonce = ctx.meta?.[RUN_META];
      const override = typeof nonce === 'string' ? detachedRuns.get(nonce) : undefined;
      if (override) {
        detachedRuns.delete(nonce as string);
        return next(override);
      }
      const { tool } = call;
      const mode = tool && toolTaskMode(tool.target, tool.methodName);
      if (!mode) return next();
      if (!ctx.clientExtension()) {
        if (mode.mode === 'optional') return next();
        throw new ProtocolError(
          ErrorCodes.MissingClientCapability,
          `Tool '${call.name}' runs only as a task, and the client did not declare the tasks extension. Declare '${TASKS_EXTENSION_ID}' in capabilities.extensions to call it.`,
          { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } },
        );
      }
      // A caller the tool's rules refuse gets the unknown-tool answer from the pipeline, and no task.
      if (tool.access && !canAccess(tool.access, ctx.authInfo)) return next();
      return listeners.during(() => createTask(call, mode, ctx, next));
    },
  });
}

/** The task after the client's answers: the ones to pending questions kept, the rest ignored; `working` again once none is pending. Undefined when nothing changes. */
function answered(task: StoredTask, responses: Record<string, unknown>): StoredTask | undefined {
  if (task.status !== 'input_required' || !task.inputRequests) return undefined;
  const pending: Record<string, TaskInputRequest> = own(task.inputRequests);
  const gathered: Record<string, unknown> = own(task.inputResponses ?? {});
  const answers: NonNullable<StoredTask['answers']> = own(task.answers ?? {});
  let changed = false;
  for (const [key, value] of Object.entries(responses)) {
    if (!Object.hasOwn(pending, key)) continue;
    Object.defineProperty(answers, key, { value: { request: pending[key], response: value }, enumerable: true, writable: true, configurable: true });
    delete pending[key];
    Object.defineProperty(gathered, key, { value, enumerable: true, writable: true, configurable: true });
    changed = true;
  }
  if (!changed) return undefined;
  const done = Object.keys(pending).length === 0;
  return touched(task, { status: done ? 'working' : 'input_required', inputRequests: pending, inputResponses: gathered, answers });
}

/** Each answer to a pending question has the shape its method answers with, or the client hears -32602 and the task waits on. */
function checkAnswers(task: StoredTask, responses: Readonly<Record<string, unknown>>): void {
  const pending = task.status === 'input_required' ? task.inputRequests : undefined;
  if (!pending) return;
  for (const [key, response] of Object.entries(responses)) {
    if (!Object.hasOwn(pending, key)) continue;
    try {
      knownAnswers({ [key]: { request: pending[key] as InputRequest, response } });
    } catch (error) {
      if (error instanceof RoundTripError) throw new ProtocolError(ErrorCodes.InvalidParams, `tasks/update: ${error.message}`);
      throw error;
    }
  }
}

/** A copy without a prototype, so no key from the wire reads an inherited member. */
function own<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  const copy = Object.create(null) as Record<string, T>;
  for (const [key, value] of Object.entries(record)) Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** The caller as the verifier described it, without its token, for runs outside any request; nothing for an anonymous caller. */
function storedCallerOf(auth: AuthInfo | undefined): { caller?: StoredCaller } {
  if (!auth) return {};
  let extra: Record<string, unknown> | undefined;
  try {
    extra = auth.extra === undefined ? undefined : (JSON.parse(JSON.stringify(auth.extra)) as Record<string, unknown>);
  } catch {
    extra = undefined;
  }
  return {
    caller: {
      clientId: auth.clientId,
      scopes: [...auth.scopes],
      ...(auth.expiresAt !== undefined && { expiresAt: auth.expiresAt }),
      ...(auth.resource && { resource: String(auth.resource) }),
      ...(extra && { extra }),
    },
  };
}

/** The caller of a run outside any request: the stored one, with no token (`''`). */
function authOf(caller: StoredCaller | undefined): AuthInfo | undefined {
  if (!caller) return undefined;
  return {
    token: '',
    clientId: caller.clientId,
    scopes: [...caller.scopes],
    ...(caller.expiresAt !== undefined && { expiresAt: caller.expiresAt }),
    ...(caller.resource !== undefined && { resource: new URL(caller.resource) }),
    ...(caller.extra && { extra: caller.extra }),
  };
}

/** What the client declared on the request that created a task. */
function storedClientOf(ctx: ExtensionContext): StoredClient {
  const { clientCapabilities, clientInfo, logLevel } = ctx.envelope;
  return { capabilities: clientCapabilities, ...(clientInfo && { info: clientInfo }), ...(logLevel && { logLevel }) };
}

/** The 2026-07-28 envelope of a run outside any request: what the client declared then. */
function clientMeta(client: StoredClient | undefined): Record<string, unknown> {
  return {
    [CLIENT_CAPABILITIES_META_KEY]: client?.capabilities ?? {},
    [CLIENT_INFO_META_KEY]: client?.info ?? { name: 'toolwright-task-worker', version: '1' },
    ...(client?.logLevel && { [LOG_LEVEL_META_KEY]: client.logLevel }),
  };
}

/** Who a task belongs to: the caller's client and subject; '' for an anonymous caller (then the unguessable id is the only key). */
function ownerOf(ctx: ExtensionContext): string {
  return roundCaller(ctx.authInfo) ?? '';
}

/** Over HTTP, `tasks/*` carry `Mcp-Name: <taskId>` for routing (SEP-2663); a missing or different one is refused (-32020). */
function checkRoutingHeader(ctx: ExtensionContext, taskId: string): void {
  if (!ctx.headers) return;
  const raw = ctx.headers['mcp-name'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (value === undefined) throw new ProtocolError(HEADER_MISMATCH, `${ctx.method} over HTTP needs the header 'Mcp-Name: <taskId>' (SEP-2663); it is missing.`);
  if (value !== taskId) throw new ProtocolError(HEADER_MISMATCH, `The Mcp-Name header does not match params.taskId of ${ctx.method}: send the same task id in both.`);
}

/** `1 task`, `2 tasks` (`1 unfinished task`, ...). */
function tasksOf(count: number, kind = ''): string {
  return `${count} ${kind}task${count === 1 ? '' : 's'}`;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new ConfigError(`Toolwright: tasks({ ${name} }) must be a positive whole number${name.endsWith('Ms') ? ' of milliseconds' : ''}; got ${String(value)}.`);
  return value;
}
