import { ConfigError } from '@toolwright/core';
import { cutText, jsonLogLine, LogThrottle } from '@toolwright/core/internal';
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

export type RequestLogger = ((entry: RequestLogEntry) => void) & {
  /** Writes the counts of the warn and error lines left out and not yet reported (at shutdown). */
  flush(): void;
};

// What one field of a line may hold: the request's own text (a path, a JSON-RPC method or id, a reason) is cut.
const MAX_FIELD = 256;
const MAX_ERROR = 1_000;
/** Warn and error lines of one status written per window; the rest are counted in one line when the window is over. */
const BURST = 20;
const WINDOW_MS = 10_000;

/**
 * A writer of one JSON line per request: successful requests at info, 4xx at warn, 5xx at
 * error. Returns undefined when nothing would ever be written, so callers skip the timing.
 *
 * Each line is one valid JSON object whatever the request held: control characters, line
 * separators and bidirectional overrides are `\uXXXX` escapes, and text fields are cut to a
 * few hundred characters. Warn and error lines of one status beyond 20 in 10 s are not
 * written; one line then says how many were left out (`msg: 'http requests not logged'`), when
 * the window is over, when the listener closes, or when the process exits before either.
 */
export function createRequestLogger(level: RequestLogLevel = 'info', write: (line: string) => void = (line) => process.stderr.write(line)): RequestLogger | undefined {
  const min = RANK[level];
  if (min > RANK.error) return undefined;
  const throttle = new LogThrottle(
    (key, count, windowMs) => {
      const [entryLevel, status] = key.split(' ');
      write(`${jsonLogLine({ time: new Date().toISOString(), level: entryLevel, msg: 'http requests not logged', status: Number(status), count, seconds: windowMs / 1000 })}\n`);
    },
    { windowMs: WINDOW_MS, burst: BURST, maxKeys: 64, flushAtExit: true },
  );
  const log = (entry: RequestLogEntry): void => {
    const entryLevel: RequestLogLevel = entry.status >= 500 ? 'error' : entry.status >= 400 ? 'warn' : 'info';
    if (RANK[entryLevel] < min) return;
    if (entryLevel !== 'info' && !throttle.admit(`${entryLevel} ${entry.status}`, `${entryLevel} 0`)) return;
    write(`${jsonLogLine({ time: new Date().toISOString(), level: entryLevel, msg: 'http request', ...boundedEntry(entry) })}\n`);
  };
  return Object.assign(log, { flush: () => throttle.flush() });
}

/** The entry with its text fields cut: they come from the request (its path, JSON-RPC method and id, a refusal's reason). */
function boundedEntry(entry: RequestLogEntry): RequestLogEntry {
  const bounded: RequestLogEntry = { ...entry, method: cutText(String(entry.method), MAX_FIELD), path: cutText(String(entry.path), MAX_FIELD) };
  if (typeof entry.session === 'string') bounded.session = cutText(entry.session, MAX_FIELD);
  if (typeof entry.rpc === 'string') bounded.rpc = cutText(entry.rpc, MAX_FIELD);
  if (typeof entry.id === 'string') bounded.id = cutText(entry.id, MAX_FIELD);
  if (typeof entry.error === 'string') bounded.error = cutText(entry.error, MAX_ERROR);
  return bounded;
}
