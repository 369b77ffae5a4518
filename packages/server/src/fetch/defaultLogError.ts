import type { ToolLogger } from '@toolwright/core';
import { LogThrottle } from '@toolwright/core/internal';

/** The fetch handler's default log: called with a line, writes it or counts it left out; `flush` writes the counts still pending. */
export interface DefaultLogError {
  (message: string): void;
  /** Writes the counts still pending now and stops the window's timer (the handler's `close()`). */
  flush(): void;
}

/** Lines of one kind (their first 60 characters: `toolwright fetch: POST /mcp refused: ...`) written per 10 s; the rest are counted. */
const BURST = 5;

/**
 * The fetch handler's log when it is given no `logError`: the app's `logger` (its `error`) when
 * the app has one, else `console.error`; a few lines of each kind every 10 s, then one line with
 * how many were left out: when the window ends, when the handler closes (`flush`), or at process
 * exit if it comes first. The window's timer is unref'd: a handler never closed does not keep the
 * process up. A client repeating a refused request (a bad token, say) thousands of times a second
 * cannot fill the log, and a logger that throws never fails the request being answered.
 */
export function defaultLogError(logger?: ToolLogger): DefaultLogError {
  const write = logger
    ? (message: string): void => {
        try {
          logger.error(message);
        } catch {
          // The app's logger failed: the request is answered all the same.
        }
      }
    : (message: string): void => console.error(message);
  const throttle = new LogThrottle((kind, suppressed, windowMs) => write(`${kind}... (${suppressed} more line(s) like this left out in ${windowMs / 1000} s)`), {
    burst: BURST,
    flushAtExit: true,
  });
  const log = (message: string): void => {
    if (throttle.admit(message.slice(0, 60))) write(message);
  };
  return Object.assign(log, { flush: () => throttle.flush() });
}
