import { LogThrottle } from '@toolwright/core/internal';

/** Lines of one kind (their first 60 characters: `toolwright fetch: POST /mcp refused: ...`) written per 10 s; the rest are counted. */
const BURST = 5;

/**
 * The fetch handler's log when the app gives none: `console.error`, a few lines of each kind
 * every 10 s, then one line with how many were left out (at process exit, if it comes first).
 * A client repeating a refused request (a bad token, say) thousands of times a second cannot
 * fill the log.
 */
export function defaultLogError(): (message: string) => void {
  const throttle = new LogThrottle((kind, suppressed, windowMs) => console.error(`${kind}... (${suppressed} more line(s) like this left out in ${windowMs / 1000} s)`), {
    burst: BURST,
    flushAtExit: true,
  });
  return (message) => {
    if (throttle.admit(message.slice(0, 60))) console.error(message);
  };
}
