import { drainTimeoutOf } from './drainTimeoutOf';

/** How long a graceful stop waits for the work in flight when no drain time is given, in milliseconds. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;

/** One drain time shared by the steps of a graceful stop: each step gets what the steps before it left. */
export interface DrainWindow {
  /** The whole drain time, in milliseconds. */
  readonly ms: number;
  /** What is left of it now, in milliseconds (0 once it passed). */
  left(): number;
}

/**
 * Opens the drain window of a graceful stop, from now: `drainTimeoutMs`, or 10000 when left out.
 * Anything else than a whole number of milliseconds from 0 to 2^31 - 1 throws a `ConfigError`
 * naming `where` (the call or option the value came from) and the allowed range.
 */
export function drainWindow(where: string, drainTimeoutMs: unknown): DrainWindow {
  const ms = drainTimeoutOf(where, drainTimeoutMs, DEFAULT_DRAIN_TIMEOUT_MS);
  const deadline = Date.now() + ms;
  return { ms, left: () => Math.max(0, deadline - Date.now()) };
}
