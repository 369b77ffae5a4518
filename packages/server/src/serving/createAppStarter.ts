import type { ServerFactory } from './ServerFactory';

/** Starts an app for one listener (a framework adapter's endpoint, `app.fetch`), which holds the app while it serves. */
export interface AppStarter {
  /**
   * Resolves true once the app started and the endpoint holds it, false once `release` was
   * called (the endpoint is closed: nothing is started). Rejects with the start's error: the
   * endpoint then holds nothing, and the next call starts the app again. One start runs at a time:
   * calls made while it runs share it.
   */
  start(): Promise<boolean>;
  /**
   * Lets go of the app, after a start still running settles: the app stops when no other listener
   * holds it, once its work still in flight settled or `drainTimeoutMs` (10 s when not given)
   * passed (see `ServerFactory.openListener`). Later starts do nothing.
   */
  release(drainTimeoutMs?: number): Promise<void>;
}

/**
 * The endpoint's hold on the app, taken before each start and let go when that start fails: a
 * last other listener closing meanwhile does not stop the app under the endpoint, and a failed
 * start leaves no hold behind that would keep the app from stopping once started by another
 * listener. `onFailure` hears a failed start once, until a start succeeds.
 */
export function createAppStarter(app: Pick<ServerFactory, 'openListener'> & { start(): Promise<void> }, onFailure: (error: unknown) => void): AppStarter {
  let starting: Promise<boolean> | undefined;
  let held: ((drainTimeoutMs?: number) => Promise<void>) | undefined;
  let reported = false;
  let released = false;
  const run = async (): Promise<boolean> => {
    const hold = app.openListener();
    try {
      await app.start();
    } catch (error) {
      starting = undefined;
      await hold();
      if (!reported) {
        reported = true;
        onFailure(error);
      }
      throw error;
    }
    reported = false;
    held = hold;
    return true;
  };
  return {
    start: () => (released ? Promise.resolve(false) : (starting ??= run())),
    release: async (drainTimeoutMs) => {
      released = true;
      await starting?.catch(() => undefined);
      const hold = held;
      held = undefined;
      await hold?.(drainTimeoutMs);
    },
  };
}
