import type { FastPaths } from './FastPaths';

/** Each app's fast paths, installed by `createApp` (none when they are off). */
const installed = new WeakMap<object, FastPaths>();

/** `createApp` installs an app's fast paths here, once. */
export function installFastPaths(app: object, paths: FastPaths): void {
  installed.set(app, paths);
}

/** The fast paths of `app`, for the transports; undefined when they are off, or for an app `createApp` did not make. */
export function fastPathsOf(app: object): FastPaths | undefined {
  return installed.get(app);
}
