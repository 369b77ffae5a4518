import type { DirectToolCall } from '../sdk/registerToolHandlers';
import type { App } from './App';

/** Each app's 2025-era direct tool call (see `serveDirectCalls`), for the transports that serve without an SDK `Server` at first. */
const direct = new WeakMap<App, DirectToolCall>();

export function setDirectCall(app: App, call: DirectToolCall): void {
  direct.set(app, call);
}

/** The app's direct tool call; undefined for an `App` that `createApp` did not make. */
export function directCallOf(app: App): DirectToolCall | undefined {
  return direct.get(app);
}
