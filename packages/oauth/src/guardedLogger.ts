import type { ToolLogger } from '@toolwright/core';

/**
 * The authorization server's log: `logger`'s lines, where a logger that throws fails no request
 * (the line is lost; the request is answered all the same).
 */
export function guardedLogger(logger: ToolLogger): ToolLogger {
  const guarded =
    (level: keyof ToolLogger) =>
    (message: string, data?: unknown): void => {
      try {
        if (data === undefined) logger[level](message);
        else logger[level](message, data);
      } catch {
        // Nowhere else this line belongs.
      }
    };
  return Object.freeze({ debug: guarded('debug'), info: guarded('info'), warn: guarded('warn'), error: guarded('error') });
}
