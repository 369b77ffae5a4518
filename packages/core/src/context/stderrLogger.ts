import type { ToolLogger } from './ToolContext';

/** A logger writing one line per entry to stderr, prefixed with a scope such as a tool name. */
export function stderrLogger(scope: string): ToolLogger {
  const write = (level: string, message: string, data?: unknown): void => {
    const suffix = data === undefined ? '' : ` ${formatData(data)}`;
    process.stderr.write(`[toolwright] ${level} ${scope}: ${message}${suffix}\n`);
  };
  return {
    debug: (m, d) => write('debug', m, d),
    info: (m, d) => write('info', m, d),
    warn: (m, d) => write('warn', m, d),
    error: (m, d) => write('error', m, d),
  };
}

function formatData(data: unknown): string {
  if (data instanceof Error) return data.stack ?? `${data.name}: ${data.message}`;
  try {
    return JSON.stringify(data);
  } catch {
    return String(data);
  }
}
