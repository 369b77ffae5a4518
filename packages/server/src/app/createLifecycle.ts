import { StartupError, type Class, type ContainerLike, type ToolLogger } from '@toolwright/core';
import { readHooks } from '@toolwright/core/internal';

/** What starts around the app's own hooks (its mounted apps, its extensions), named in a failure. */
export interface LifecycleStage {
  /** Names it in a failure: "the extensions". */
  readonly name: string;
  start(): unknown;
  /** `drainTimeoutMs`: what is left of the stop's drain time when this stage stops (0: the stop does not wait). */
  stop(drainTimeoutMs: number): unknown;
}

export interface LifecycleOptions {
  readonly classes: readonly Class[];
  readonly container: ContainerLike;
  readonly onStart?: () => unknown;
  readonly onShutdown?: () => unknown;
  /** Starts before the app's own hooks and stops after them: what they may use (mounted apps serve inside the app). */
  readonly first?: LifecycleStage;
  /** Starts after the app's own hooks and stops before them: what uses what they open (an extension's worker calls tools). */
  readonly last?: LifecycleStage;
  /**
   * Waits up to `timeoutMs` for the app's work in flight (a task's run outlives its request): a
   * stop given a drain time runs it once `last` stopped (nothing new starts) and before the app's
   * own shutdown hooks, so a run still going does not see what it uses closed under it.
   */
  readonly drain?: (timeoutMs: number) => Promise<unknown>;
  readonly logger: ToolLogger;
}

/** The parts of the app that start and stop together: what `first` opens, the app's own hooks, what `last` opens. */
type Part = 'first' | 'own' | 'last';

interface Step {
  /** How a failure names it: "the start hook onStart", "the extensions". */
  readonly name: string;
  readonly part: Part;
  readonly run: () => unknown;
  /** A step with its own timeout (the drain wait): not named in the log as one that may never settle. */
  readonly bounded?: true;
}

/** After this long, a step still running is named in the log (once): a hook that never settles would otherwise hang the start or stop in silence. */
const SLOW_STEP_MS = 10_000;

/**
 * The app's start and shutdown hooks: `first`, `onStart`, every `@OnStart()` method of the
 * served and listed service classes in order, then `last`; on stop, `last`, every
 * `@OnShutdown()` method in reverse order, `onShutdown`, then `first`. A start asked while the
 * app is starting or started, and a stop asked while it is stopping or stopped, do nothing more;
 * nor does a stop asked before any start (an app built and never served has nothing to close).
 * A start asked once a stop was asked runs the start side again, after that stop completed: an
 * app served again after its last listener closed (a test's next client) is served with what its
 * start hooks opened, not with what its shutdown hooks closed. A stop asked while the start runs
 * waits for it to end (or fail): run at once, the shutdown hooks would close what a start hook
 * was still opening, and the start would then open it again, and start the extensions, after the
 * shutdown. A start that fails runs the stop side of the parts whose start began (the mounted
 * apps, the app's own shutdown hooks, the extensions) before it throws: what did start is closed,
 * and the next start runs every start hook again (a database that was down at first). A step
 * still running after 10 s is named once in the log, as a warning: a hook that never settles
 * holds the start, and a stop waits for the start. A stop given `drainTimeoutMs` (a listener's,
 * when the app's last listener closed) waits that long at most, between `last` and the app's own
 * hooks, for the work still in flight (see `drain`; that wait has its own timeout, so it is never
 * named as slow), and hands what is left of that time to `first` (a mounted app waits for its own
 * work no longer than its parent); the first stop asked decides.
 */
export function createLifecycle({ classes, container, onStart, onShutdown, first, last, drain, logger }: LifecycleOptions): {
  start(): Promise<void>;
  stop(drainTimeoutMs?: number): Promise<void>;
} {
  const methods = (when: 'start' | 'shutdown'): Step[] =>
    classes.flatMap((cls) =>
      readHooks(cls)
        .filter((hook) => hook.when === when)
        .map((hook) => ({
          name: `the ${when} hook ${cls.name}.${hook.methodName}`,
          part: 'own' as const,
          run: () => (container.get(cls) as Record<string, () => unknown>)[hook.methodName](),
        })),
    );
  const stage = (s: LifecycleStage | undefined, part: 'first' | 'last', side: 'start' | 'stop'): Step[] => (s ? [{ name: s.name, part, run: () => (side === 'start' ? s.start() : s.stop(0)) }] : []);
  const startSteps: Step[] = [
    ...stage(first, 'first', 'start'),
    ...(onStart ? [{ name: 'the start hook onStart', part: 'own' as const, run: onStart }] : []),
    ...methods('start'),
    ...stage(last, 'last', 'start'),
  ];
  // How long the stop running now waits for the work in flight (0: it does not wait), and when that time ends.
  let drainFor = 0;
  let drainEnds = 0;
  /** What is left of the stop's drain time now (0 once it ended, or when the stop does not wait). */
  const drainLeft = (): number => (drainFor > 0 ? Math.max(0, drainEnds - Date.now()) : 0);
  const stopSteps: Step[] = [
    ...stage(last, 'last', 'stop'),
    ...(drain ? [{ name: 'the wait for the calls in flight', part: 'last' as const, bounded: true as const, run: () => (drainLeft() > 0 ? drain(drainLeft()) : undefined) }] : []),
    ...methods('shutdown').reverse(),
    ...(onShutdown ? [{ name: 'the shutdown hook onShutdown', part: 'own' as const, run: onShutdown }] : []),
    // A mounted app waits for its own work in flight only as long as this stop's drain time lasts.
    ...(first ? [{ name: first.name, part: 'first' as const, run: () => first.stop(drainLeft()) }] : []),
  ];
  /** Runs one step, naming it in the log once if it is still running after SLOW_STEP_MS (unless it has its own timeout). */
  const runStep = async (step: Step, side: 'start' | 'stop'): Promise<void> => {
    if (step.bounded) return void (await step.run());
    const timer = setTimeout(
      () => safely(() => logger.warn(`${step.name} is still running after ${SLOW_STEP_MS / 1000} s: the server's ${side} waits for it. Make it settle (give what it awaits a timeout).`)),
      SLOW_STEP_MS,
    );
    // A hook that never settles must not keep the process alive on its own.
    (timer as { unref?: () => void }).unref?.();
    try {
      await step.run();
    } finally {
      clearTimeout(timer);
    }
  };
  /** Runs the stop side of the parts whose start began (all of them after a complete start). */
  const runStop = async (begun: ReadonlySet<Part>): Promise<void> => {
    for (const step of stopSteps) {
      if (!begun.has(step.part)) continue;
      try {
        await runStep(step, 'stop');
      } catch (error) {
        safely(() => logger.error(`${step.name} failed`, error));
      }
    }
  };
  const everyPart: ReadonlySet<Part> = new Set(['first', 'own', 'last']);
  /**
   * Runs the start side. When a step fails, the stop side of the parts whose start began runs
   * before the failure is thrown: what did start is closed, and the next start runs every step again.
   */
  const runStart = async (): Promise<void> => {
    const begun = new Set<Part>();
    for (const step of startSteps) {
      begun.add(step.part);
      try {
        await runStep(step, 'start');
      } catch (error) {
        // What a failed start began stops at once: no listener drained calls it never served.
        drainFor = 0;
        await runStop(begun);
        // A mounted app's own failure already names its hook and says the server did not start.
        if (error instanceof StartupError) throw error;
        throw new StartupError(`Toolwright: ${step.name} failed, so the server did not start: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
  };
  // The start and the stop asked last; a stop is undefined once a later start was asked.
  let started: Promise<void> | undefined;
  let stopped: Promise<void> | undefined;
  return {
    start: () => {
      if (started && !stopped) return started;
      // After a stop (completed, or still running: it is awaited), the start side runs again.
      const previous = stopped;
      stopped = undefined;
      const run = previous ? previous.then(runStart) : runStart();
      started = run;
      // A failed start has stopped what it began: the app counts as stopped, so a later stop does
      // nothing more and a later start runs every step again.
      run.catch(() => {
        if (started === run && !stopped) stopped = Promise.resolve();
      });
      return run;
    },
    stop: (drainTimeoutMs = 0) => {
      if (stopped) return stopped;
      const start = started;
      // An app never started has opened nothing: its shutdown hooks would close what no start hook
      // opened (or what a later start would open). It stays unstarted, so the next start runs in full.
      if (!start) return Promise.resolve();
      // A stop asked while the start runs waits for it; a start that failed has stopped what it began itself.
      return (stopped = start.then(
        () => {
          drainFor = drainTimeoutMs;
          drainEnds = Date.now() + drainTimeoutMs;
          return runStop(everyPart);
        },
        () => undefined,
      ));
    },
  };
}

/** Runs a call to the app's logger: a logger that throws must neither crash the process (from a timer) nor end a shutdown early. */
function safely(log: () => void): void {
  try {
    log();
  } catch {
    // The app's logger failed: the lifecycle goes on all the same.
  }
}
