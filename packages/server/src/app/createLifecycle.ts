import { StartupError, type Class, type ContainerLike, type ToolLogger } from '@toolwright/core';
import { readHooks } from '@toolwright/core/internal';

export interface LifecycleOptions {
  readonly classes: readonly Class[];
  readonly container: ContainerLike;
  readonly onStart?: () => unknown;
  readonly onShutdown?: () => unknown;
  readonly logger: ToolLogger;
}

interface Step {
  readonly name: string;
  readonly run: () => unknown;
}

/**
 * The app's start and shutdown hooks: `onStart`, then every `@OnStart()` method of the
 * served and listed service classes, in order; on stop, every `@OnShutdown()` method in
 * reverse order, then `onShutdown`. Each side runs once, however often it is asked.
 */
export function createLifecycle({ classes, container, onStart, onShutdown, logger }: LifecycleOptions): { start(): Promise<void>; stop(): Promise<void> } {
  const methods = (when: 'start' | 'shutdown'): Step[] =>
    classes.flatMap((cls) =>
      readHooks(cls)
        .filter((hook) => hook.when === when)
        .map((hook) => ({ name: `${cls.name}.${hook.methodName}`, run: () => (container.get(cls) as Record<string, () => unknown>)[hook.methodName]() })),
    );
  const startSteps: Step[] = [...(onStart ? [{ name: 'onStart', run: onStart }] : []), ...methods('start')];
  const stopSteps: Step[] = [...methods('shutdown').reverse(), ...(onShutdown ? [{ name: 'onShutdown', run: onShutdown }] : [])];
  let started: Promise<void> | undefined;
  let stopped: Promise<void> | undefined;
  return {
    start: () =>
      (started ??= (async () => {
        for (const step of startSteps) {
          try {
            await step.run();
          } catch (error) {
            throw new StartupError(`Toolwright: the start hook ${step.name} failed, so the server did not start: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
          }
        }
      })()),
    stop: () =>
      (stopped ??= (async () => {
        for (const step of stopSteps) {
          try {
            await step.run();
          } catch (error) {
            logger.error(`the shutdown hook ${step.name} failed`, error);
          }
        }
      })()),
  };
}
