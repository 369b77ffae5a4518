export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

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
export function createRequestLogger(level: LogLevel = 'info', write: (line: string) => void = (line) => process.stderr.write(line)): RequestLogger | undefined {
  const min = RANK[level];
  if (min > RANK.error) return undefined;
  return (entry) => {
    const entryLevel: LogLevel = entry.status >= 500 ? 'error' : entry.status >= 400 ? 'warn' : 'info';
    if (RANK[entryLevel] < min) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: entryLevel, msg: 'http request', ...entry })}\n`);
  };
}
