import type { TaskStore } from './TaskStore';

/** What the store's listeners hand on: the cancels to the runner, the changes to the listen streams. */
export interface HeardFromStore {
  cancel(taskId: string): void;
  change(taskId: string): void;
}

/**
 * The cancel and change listeners one tasks extension registers with its store, held while
 * something on this instance needs them: the app between `start` and `stop`, each task run going
 * on here, each `subscriptions/listen` stream watching tasks, each request that writes tasks (a
 * store shared by instances, such as Redis, tells the others of a write only while a change
 * listener is registered with it). Once the last need ends, the store keeps nothing of this
 * extension: an app that was never started (served through `createServer`, `connect` or a fetch
 * handler), or that stopped, leaves no listener behind on a store many apps share.
 */
export class TaskStoreListeners {
  private needs = 0;
  /** Removes the listeners; undefined while none are registered. */
  private stop: (() => void) | undefined;
  /** A store that returned no means to remove a listener keeps them: they are registered once, never again. */
  private kept = false;

  constructor(
    private readonly store: TaskStore,
    private readonly heard: HeardFromStore,
  ) {}

  /** Whether the listeners are registered with the store now. */
  get listening(): boolean {
    return this.stop !== undefined || this.kept;
  }

  /** Registers the listeners unless they are; returns the means to say this need ended (once). */
  hold(): () => void {
    if (this.needs++ === 0) this.listen();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.needs > 0) return;
      const stop = this.stop;
      this.stop = undefined;
      stop?.();
    };
  }

  /** Runs `work` while holding the listeners (a request that writes tasks). */
  async during<T>(work: () => Promise<T>): Promise<T> {
    const release = this.hold();
    try {
      return await work();
    } finally {
      release();
    }
  }

  private listen(): void {
    if (this.stop || this.kept) return;
    const { store, heard } = this;
    const stops: unknown[] = [];
    if (store.onCancel) stops.push(store.onCancel((taskId) => heard.cancel(taskId)));
    if (store.onChange) stops.push(store.onChange((taskId) => heard.change(taskId)));
    // Registering them again would add a second pair: such a store keeps its one pair for good.
    if (stops.some((stop) => typeof stop !== 'function')) {
      this.kept = true;
      return;
    }
    this.stop = () => {
      for (const stop of stops as (() => void)[]) stop();
    };
  }
}
