import { ConfigError } from '@toolwright/core';
import type { HttpHandlerOptions } from './HttpHandlerOptions';

/**
 * How much the HTTP listener logs about requests (one JSON line each on stderr): not the MCP
 * log levels of `ctx.log` and the app's `logLevel` (`LogLevel` of `@toolwright/core`).
 */
export type RequestLogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const RANK: Record<RequestLogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
const LEVELS = Object.keys(RANK) as RequestLogLevel[];

/** The request log level `options` ask for ('info' by default), checked. */
export function requestLogLevelOf(options: Pick<HttpHandlerOptions, 'requestLogLevel' | 'logLevel'>): RequestLogLevel {
  const { requestLogLevel, logLevel } = options;
  if (requestLogLevel !== undefined && logLevel !== undefined && requestLogLevel !== logLevel) {
    throw new ConfigError(`HTTP options: requestLogLevel '${String(requestLogLevel)}' and logLevel '${String(logLevel)}' disagree. Set requestLogLevel only; logLevel is its deprecated old name.`);
  }
  const level = requestLogLevel ?? logLevel ?? 'info';
  if (!LEVELS.includes(level)) {
    const name = requestLogLevel !== undefined ? 'requestLogLevel' : 'logLevel';
    throw new ConfigError(
      `HTTP options: ${name} must be one of ${LEVELS.map((l) => `'${l}'`).join(', ')}, got ${JSON.stringify(level)}. (The MCP log level of ctx.log is createApp's logLevel option.)`,
    );
  }
  return level;
}

/** What one request log line holds. */
export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  ms: number;
  session?: string;
  rpc?: string;
  id?: string | number | null;
  error?: string;
}

export type RequestLogger = (entry: RequestLogEntry) => void;

/**
 * A writer of one JSON line per request: successful requests at info, 4xx at warn, 5xx at
 * error. Returns undefined when nothing would ever be written, so callers skip the timing.
 */
export function createRequestLogger(level: RequestLogLevel = 'info', write: (line: string) => void = (line) => process.stderr.write(line)): RequestLogger | undefined {
  const min = RANK[level];
  if (min > RANK.error) return undefined;
  return (entry) => {
    const entryLevel: RequestLogLevel = entry.status >= 500 ? 'error' : entry.status >= 400 ? 'warn' : 'info';
    if (RANK[entryLevel] < min) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: entryLevel, msg: 'http request', ...entry })}\n`);
  };
}
