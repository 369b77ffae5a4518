import type { ToolLogger } from './ToolContext';

/** The MCP log levels, from least to most severe (RFC 5424 severities). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Logs the client can see (`notifications/message`), sent on the request's own stream and
 * dropped below the level the client chose with `logging/setLevel`. `warn` is `warning`.
 * `data` may be any JSON value; with a message it is sent as `{ message, data }`.
 */
export interface ClientLogger extends ToolLogger {
  notice(message: string, data?: unknown): void;
  warning(message: string, data?: unknown): void;
  critical(message: string, data?: unknown): void;
  alert(message: string, data?: unknown): void;
  emergency(message: string, data?: unknown): void;
  /** Logs at a level chosen at run time. */
  log(level: LogLevel, message: string, data?: unknown): void;
}
