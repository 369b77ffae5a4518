import type { Mount } from './Mount';

/** What a parent calls when it stops serving a mounted app: the app stops once nothing else holds it. */
export type MountedHold = () => Promise<void>;

/**
 * Starts a mounted app for a parent that serves it (its start hooks, once, however many hold
 * it). An app made by `createApp` is held as a listener holds it: its shutdown hooks run when
 * the last of its parents and its own listeners lets go, so stopping one parent does not stop
 * an app another parent or its own endpoint still serves. When its start fails, the hold is
 * let go at once (the hooks that ran are shut down, unless something else holds the app) and
 * the failure is thrown. An upstream from `proxyServer()` is started and stopped as it is.
 */
export async function holdMounted(app: Mount['app']): Promise<MountedHold> {
  const release: MountedHold = 'openListener' in app ? app.openListener() : () => app.stop();
  try {
    await app.start();
  } catch (error) {
    await release();
    throw error;
  }
  return release;
}
