import type { FastPaths } from './FastPaths';

/** Each app's fast paths, installed by `createApp`: what gives them (undefined when they are off), made on first use. */
const installed = new WeakMap<object, () => FastPaths | undefined>();

/** `createApp` installs here, once, what gives an app's fast paths. */
export function installFastPaths(app: object, paths: () => FastPaths | undefined): void {
  installed.set(app, paths);
}

/** The fast paths of `app`, for the transports; undefined when they are off, or for an app `createApp` did not make. */
export function fastPathsOf(app: object): FastPaths | undefined {
  return installed.get(app)?.();
}
