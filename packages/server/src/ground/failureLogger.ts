import { stderrLogger, type ToolLogger } from '@toolwright/core';
import { LogThrottle } from '@toolwright/core/internal';

/** Warnings and errors of one kind (level and the message's first characters) written per window; the rest are counted. */
const BURST = 5;
const KEY_LENGTH = 120;

/** A transport's failure log; `flush` writes the counts still pending (the transport's close). */
export interface FailureLogger extends ToolLogger {
  /** Writes now the counts of lines left out that the window has not written yet, and stops its timer. */
  flush(): void;
}

/**
 * Where a transport (`scope`: 'http', 'stdio') logs what failed: the app's `logger` when it has
 * one, else the stderr logger of `scope`. A client can make these lines as fast as it sends
 * requests, so the app's logger gets them bounded as stderr does: 5 warnings or errors of a kind
 * every 10 s, then one warning with how many were left out. Each message there starts with
 * `toolwright <scope>: `, and a logger that throws never fails the request being answered. Its
 * `flush` writes the counts still pending when the transport closes (the stderr logger's counts are
 * the process's, written when their window ends or at exit).
 */
export function failureLogger(logger: ToolLogger | undefined, scope: string): FailureLogger {
  if (!logger) return { ...stderrLogger(scope), flush: () => undefined };
  const prefix = `toolwright ${scope}: `;
  // A line that already names its scope (the cluster's `toolwright http: cluster: ...`) keeps the one it has.
  const scoped = (message: unknown): string => (String(message).startsWith(prefix) ? String(message) : `${prefix}${String(message)}`);
  const send = (level: keyof ToolLogger, message: string, data?: unknown): void => {
    try {
      if (data === undefined) logger[level](message);
      else logger[level](message, data);
    } catch {
      // The app's logger failed: the request is answered all the same, and there is nowhere else this line belongs.
    }
  };
  const throttle = new LogThrottle(
    (key, suppressed, windowMs) => send('warn', `${prefix}${suppressed} more ${key.split('\u0000')[0]} line(s) like the last ones were left out in ${windowMs / 1000} s`),
    {
      burst: BURST,
      flushAtExit: true,
    },
  );
  const bounded =
    (level: 'warn' | 'error') =>
    (message: string, data?: unknown): void => {
      const text = scoped(message);
      if (throttle.admit(`${level}\u0000${text.slice(0, KEY_LENGTH)}`, level)) send(level, text, data);
    };
  return {
    debug: (message, data) => send('debug', scoped(message), data),
    info: (message, data) => send('info', scoped(message), data),
    warn: bounded('warn'),
    error: bounded('error'),
    flush: () => throttle.flush(),
  };
}
