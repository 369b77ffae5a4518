import { StartupError, type Class, type ContainerLike, type ToolLogger } from '@toolwright/core';
import { readHooks } from '@toolwright/core/internal';

/** What starts around the app's own hooks (its mounted apps, its extensions), named in a failure. */
export interface LifecycleStage {
  /** Names it in a failure: "the extensions". */
  readonly name: string;
  start(): unknown;
  stop(): unknown;
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
  readonly logger: ToolLogger;
}

interface Step {
  /** How a failure names it: "the start hook onStart", "the extensions". */
  readonly name: string;
  readonly run: () => unknown;
}

/**
 * The app's start and shutdown hooks: `first`, `onStart`, every `@OnStart()` method of the
 * served and listed service classes in order, then `last`; on stop, `last`, every
 * `@OnShutdown()` method in reverse order, `onShutdown`, then `first`. A start asked while the
 * app is starting or started, and a stop asked while it is stopping or stopped, do nothing more.
 * A start asked once a stop was asked runs the start side again, after that stop completed: an
 * app served again after its last listener closed (a test's next client) is served with what its
 * start hooks opened, not with what its shutdown hooks closed. A stop asked while the start runs
 * waits for it to end (or fail): run at once, the shutdown hooks would close what a start hook
 * was still opening, and the start would then open it again, and start the extensions, after the
 * shutdown.
 */
export function createLifecycle({ classes, container, onStart, onShutdown, first, last, logger }: LifecycleOptions): { start(): Promise<void>; stop(): Promise<void> } {
  const methods = (when: 'start' | 'shutdown'): Step[] =>
    classes.flatMap((cls) =>
      readHooks(cls)
        .filter((hook) => hook.when === when)
        .map((hook) => ({ name: `the ${when} hook ${cls.name}.${hook.methodName}`, run: () => (container.get(cls) as Record<string, () => unknown>)[hook.methodName]() })),
    );
  const stage = (s: LifecycleStage | undefined, side: 'start' | 'stop'): Step[] => (s ? [{ name: s.name, run: () => s[side]() }] : []);
  const startSteps: Step[] = [...stage(first, 'start'), ...(onStart ? [{ name: 'the start hook onStart', run: onStart }] : []), ...methods('start'), ...stage(last, 'start')];
  const stopSteps: Step[] = [...stage(last, 'stop'), ...methods('shutdown').reverse(), ...(onShutdown ? [{ name: 'the shutdown hook onShutdown', run: onShutdown }] : []), ...stage(first, 'stop')];
  const runStart = async (): Promise<void> => {
    for (const step of startSteps) {
      try {
        await step.run();
      } catch (error) {
        // A mounted app's own failure already names its hook and says the server did not start.
        if (error instanceof StartupError) throw error;
        throw new StartupError(`Toolwright: ${step.name} failed, so the server did not start: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
  };
  const runStop = async (): Promise<void> => {
    for (const step of stopSteps) {
      try {
        await step.run();
      } catch (error) {
        logger.error(`${step.name} failed`, error);
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
      return (started = previous ? previous.then(runStart) : runStart());
    },
    stop: () => {
      if (stopped) return stopped;
      // A failed start is the caller of `start`'s to report; what did start is stopped all the same.
      const start = started;
      return (stopped = (async () => {
        await start?.catch(() => undefined);
        await runStop();
      })());
    },
  };
}
