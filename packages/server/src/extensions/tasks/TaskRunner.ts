import { CallInterrupt, type ToolLogger } from '@toolwright/core';
import { ErrorCodes, ProtocolError } from '../../sdk/ProtocolError';
import type { ToolRunOverride } from '../Extension';
import { inTaskSpan } from './taskSpan';
import { TERMINAL, type StoredTask, type TaskInputRequest, type TaskStore } from './TaskStore';
import type { TaskStoreListeners } from './TaskStoreListeners';

/** Runs one round of a task's tool call with what the runner changes about it; resolves with the call's answer. */
export type TaskRun = (override: ToolRunOverride) => Promise<Record<string, unknown>>;

/** A round begun by `TaskRunner.begin`: its task id, its abort controller and its answer. */
export interface RunningRound {
  readonly id: string;
  readonly controller: AbortController;
  readonly answer: Promise<Record<string, unknown>>;
}

/** A task's next version, stamped now: `lastUpdatedAt` and the expiry move on. */
export function touched(task: StoredTask, change: Partial<StoredTask>, now = Date.now()): StoredTask {
  return { ...task, heartbeatAt: now, ...change, lastUpdatedAt: new Date(now).toISOString(), expiresAt: now + task.ttlMs };
}

/**
 * Runs the tool calls of tasks in this process and writes what becomes of them to the store:
 * the result (`completed`, `isError` results too), the questions it waits on
 * (`input_required`), or the protocol error that ended it (`failed`). A task that is
 * already terminal (cancelled meanwhile) is never written again. Progress and log messages
 * of the run become the task's `statusMessage`.
 */
export class TaskRunner {
  private readonly running = new Map<string, AbortController>();
  /** The run (`attempt`) of each task this process runs: its writes apply only while the task is still on that run. */
  private readonly attempts = new Map<string, number>();
  /** Per round: whether the store has its task yet, the status message waiting until it has, and the end of its count in flight. */
  private readonly held = new WeakMap<AbortController, { stored: boolean; message?: string; ended: () => void }>();
  /** The caller (`StoredTask.owner`) of each run here, and how many runs each caller has here. */
  private readonly owners = new Map<string, string>();
  private readonly perOwner = new Map<string, number>();
  /** Ends this runner's hold on the store's listeners, per task run going on here (cancels from any instance reach it meanwhile). */
  private readonly holds = new Map<string, () => void>();

  constructor(
    private readonly store: TaskStore,
    private readonly logger: ToolLogger,
    /** How often a running task's `heartbeatAt` is renewed, in ms. */
    private readonly heartbeatMs: number,
    /** The store's listeners, held while a run goes on here. */
    private readonly listeners: TaskStoreListeners,
  ) {}

  /**
   * Starts a round of `task` (not awaited: the caller answers its client at once), once a store
   * write let it run again (answered, restarted, taken from the queue).
   */
  start(task: StoredTask, run: TaskRun): void {
    const round = this.begin(task, run);
    void this.follow(round);
    void this.recheck(round);
  }

  /**
   * Reads a started round's task again, now that a cancel can find its run here: a cancel written
   * between the write that let the round start and its start found nothing to abort, so a task
   * that ended (or expired, or another instance took over) meanwhile stops the round now.
   */
  private async recheck(round: RunningRound): Promise<void> {
    try {
      const task = await this.store.get(round.id);
      if (this.running.get(round.id) !== round.controller) return;
      if (!task) this.abort(round.id, 'The task expired: its ttlMs passed without a change.');
      else if (TERMINAL.has(task.status)) this.abort(round.id, `The task is ${task.status}.`);
      else if (!this.ours(task)) this.abort(round.id, 'Another server instance took the task over.');
    } catch (error) {
      this.logger.warn(`task ${round.id}: it could not be read again once its run started`, error);
    }
  }

  /**
   * Starts a round of `task` without writing anything yet: `follow` it once the store has the
   * task, or `drop` it when its answer is not the task's (a first round that only asked).
   */
  begin(task: StoredTask, run: TaskRun): RunningRound {
    const id = task.taskId;
    const controller = new AbortController();
    // Taken before the round this one replaces lets go of its own, so the listeners stay registered in between.
    const hold = this.listeners.hold();
    this.forget(id);
    this.running.set(id, controller);
    this.holds.set(id, hold);
    this.attempts.set(id, task.attempt ?? 1);
    this.owners.set(id, task.owner);
    this.perOwner.set(task.owner, (this.perOwner.get(task.owner) ?? 0) + 1);
    // Until the store has the task (`follow`), its latest status message waits here: a write before would find no task.
    let ended: () => void = () => undefined;
    const held: { stored: boolean; message?: string; ended: () => void } = { stored: false, ended: () => ended() };
    this.held.set(controller, held);
    const override: ToolRunOverride = {
      signal: controller.signal,
      // The run counts in the app's calls in flight until its outcome is stored (or the round dropped): app.drain() waits for it.
      settled: new Promise<void>((resolve) => (ended = resolve)),
      progressToken: id,
      onNotify: (notification) => {
        const message = messageOf(notification);
        if (held.stored) this.status(id, message);
        else if (message !== undefined) held.message = message;
      },
      // The answers the client gave so far come back from the store, not from a sealed state: a run
      // started again (after its instance stopped, as another caller identity) gets them all the same.
      ...(task.answers && { round: { answers: task.answers } }),
    };
    // A run that throws before it answers is a run that failed: the round still ends as any other
    // (`follow` stores the failure, or `drop`), so its hold on the listeners and its count in flight end too.
    let answer: Promise<Record<string, unknown>>;
    try {
      answer = inTaskSpan(task, () => run(override));
    } catch (error) {
      answer = Promise.reject(error as Error);
    }
    answer.catch(() => undefined);
    return { id, controller, answer };
  }

  /** Forgets a round begun for no task, or whose outcome is stored. */
  drop(round: RunningRound): void {
    this.held.get(round.controller)?.ended();
    if (this.running.get(round.id) !== round.controller) return;
    this.forget(round.id);
  }

  private forget(id: string): void {
    this.running.delete(id);
    this.holds.get(id)?.();
    this.holds.delete(id);
    this.attempts.delete(id);
    const owner = this.owners.get(id);
    if (owner === undefined) return;
    this.owners.delete(id);
    const left = (this.perOwner.get(owner) ?? 1) - 1;
    if (left > 0) this.perOwner.set(owner, left);
    else this.perOwner.delete(owner);
  }

  /** Whether `task` is still on the run this process started (another instance may have restarted it since). */
  private ours(task: StoredTask): boolean {
    const attempt = this.attempts.get(task.taskId);
    return attempt === undefined || (task.attempt ?? 1) === attempt;
  }

  /** Writes what becomes of a begun round to its task, renewing the task's heartbeat meanwhile. */
  async follow(round: RunningRound): Promise<void> {
    const { id } = round;
    const held = this.held.get(round.controller);
    if (held) {
      held.stored = true;
      this.status(id, held.message);
    }
    // While the run goes on, its instance says so; a task whose heartbeat stops failed with its instance.
    const beat = setInterval(() => this.beat(id), this.heartbeatMs);
    beat.unref?.();
    // Once aborted (cancelled, expired, taken over), the run is no longer the task's: a method that ignores its signal does not hold its place here.
    const { signal } = round.controller;
    const stopped = new Promise<undefined>((resolve) => (signal.aborted ? resolve(undefined) : signal.addEventListener('abort', () => resolve(undefined), { once: true })));
    try {
      const answer = await Promise.race([round.answer, stopped]);
      if (answer !== undefined) await this.settle(id, answer);
    } catch (error) {
      await this.fail(id, error).catch((e: unknown) => this.logger.error(`task ${id}: its failure could not be stored`, e));
    } finally {
      clearInterval(beat);
      this.drop(round);
    }
  }

  /** Aborts the run of `taskId` if it runs here (its `ctx.signal`); `why` says why, for the method's signal reason. */
  abort(taskId: string, why = 'The task was cancelled (tasks/cancel).'): void {
    try {
      // A CallInterrupt: a method that rejects with its signal's reason is ended by the framework, not logged as failing.
      this.running.get(taskId)?.abort(new CallInterrupt(why, { cause: new ProtocolError(ErrorCodes.InternalError, why) }));
    } catch (error) {
      // A runtime that ties I/O to one request (Cloudflare Workers) refuses to abort another request's run: the task is cancelled all the same.
      this.logger.warn(`task ${taskId}: its run could not be aborted here`, error);
    }
  }

  /** How many task runs this process has going. */
  get active(): number {
    return this.running.size;
  }

  /** How many task runs this process has going for the caller `owner` (`StoredTask.owner`). */
  activeFor(owner: string): number {
    return this.perOwner.get(owner) ?? 0;
  }

  private async settle(id: string, answer: Record<string, unknown>): Promise<void> {
    if (answer.resultType === 'input_required') {
      const inputRequests = answer.inputRequests as Record<string, TaskInputRequest>;
      const requestState = answer.requestState as string;
      await this.write(id, { status: 'input_required', inputRequests, inputResponses: {}, requestState });
      return;
    }
    const { resultType: _complete, ...result } = answer;
    await this.write(id, { status: 'completed', result, inputRequests: undefined, inputResponses: undefined, requestState: undefined, answers: undefined });
  }

  private async fail(id: string, error: unknown): Promise<void> {
    const code = (error as { code?: unknown } | undefined)?.code;
    let failure: StoredTask['error'];
    if (error instanceof Error && typeof code === 'number' && Number.isSafeInteger(code)) {
      const data = (error as { data?: unknown }).data;
      failure = { code, message: error.message, ...(data !== undefined && { data }) };
    } else {
      this.logger.error(`task ${id}: its run threw; the task failed with -32603`, error);
      failure = { code: -32603, message: 'Internal error' };
    }
    await this.write(id, { status: 'failed', error: failure, inputRequests: undefined, inputResponses: undefined, requestState: undefined, answers: undefined });
  }

  private write(id: string, change: Partial<StoredTask>): Promise<StoredTask | undefined> {
    return this.store.update(id, (task) => (TERMINAL.has(task.status) || !this.ours(task) ? undefined : touched(task, change)));
  }

  /** Whether the run of `taskId` goes on in this process. */
  runs(taskId: string): boolean {
    return this.running.has(taskId);
  }

  private beat(id: string): void {
    let lost = false;
    this.store
      .update(id, (task) => {
        lost = !this.ours(task);
        return task.status === 'working' && !lost ? { ...task, heartbeatAt: Date.now() } : undefined;
      })
      .then((task) => {
        // Another instance took the task over (this one was silent too long): this run stops, so one run goes on.
        if (lost) this.abort(id, 'Another server instance took the task over.');
        // The task expired (its ttlMs passed without a change) or ended: nobody can read what this run would write.
        else if (!task) this.abort(id, 'The task expired: its ttlMs passed without a change.');
        else if (TERMINAL.has(task.status)) this.abort(id, `The task is ${task.status}.`);
      })
      .catch((error: unknown) => this.logger.warn(`task ${id}: its heartbeat could not be stored`, error));
  }

  private status(id: string, message: string | undefined): void {
    if (message === undefined) return;
    this.store
      .update(id, (task) => (TERMINAL.has(task.status) || task.statusMessage === message || !this.ours(task) ? undefined : touched(task, { statusMessage: message })))
      .catch((error: unknown) => this.logger.warn(`task ${id}: its status message could not be stored`, error));
  }
}

/** The status message a progress or log notification of the run gives its task. */
function messageOf({ method, params }: { readonly method: string; readonly params?: Readonly<Record<string, unknown>> }): string | undefined {
  if (method === 'notifications/progress') {
    if (typeof params?.message === 'string') return params.message;
    return typeof params?.total === 'number' ? `${String(params.progress)} of ${params.total}` : `${String(params?.progress)}`;
  }
  if (method === 'notifications/message') {
    const data = params?.data;
    if (typeof data === 'string') return data;
    const message = (data as { message?: unknown } | undefined)?.message;
    return typeof message === 'string' ? message : undefined;
  }
  return undefined;
}
