import type { Mount } from './Mount';

/**
 * What a parent calls when it stops serving a mounted app: the app stops once nothing else holds
 * it, waiting at most `drainTimeoutMs` (what is left of the parent's drain time; 0: no wait) for its work in flight.
 */
export type MountedHold = (drainTimeoutMs: number) => Promise<void>;

/**
 * Starts a mounted app for a parent that serves it (its start hooks, once, however many hold
 * it). An app made by `createApp` is held as a listener holds it: its shutdown hooks run when
 * the last of its parents and its own listeners lets go, so stopping one parent does not stop
 * an app another parent or its own endpoint still serves. When its start fails, the hold is
 * let go at once (the hooks that ran are shut down, unless something else holds the app) and
 * the failure is thrown. An upstream from `proxyServer()` is held the same way: it is stopped
 * when the last parent that serves it lets go, so one parent's stop does not cut the calls of another.
 */
export async function holdMounted(app: Mount['app']): Promise<MountedHold> {
  const release: MountedHold = 'openListener' in app ? app.openListener() : holdProxy(app);
  try {
    await app.start();
  } catch (error) {
    // A start that failed has stopped what it began: nothing of it is in flight.
    await release(0);
    throw error;
  }
  return release;
}

/** How many parents hold each proxy now. */
const proxyHolds = new WeakMap<object, number>();

/** One more hold of `proxy`; its release (once) stops the proxy when no other parent holds it. */
function holdProxy(proxy: { stop(): Promise<void> }): MountedHold {
  proxyHolds.set(proxy, (proxyHolds.get(proxy) ?? 0) + 1);
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    const left = (proxyHolds.get(proxy) ?? 1) - 1;
    proxyHolds.set(proxy, left);
    if (left === 0) await proxy.stop();
  };
}
