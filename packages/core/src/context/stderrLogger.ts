import type { ToolLogger } from './ToolContext';
import { LogThrottle, cutText, logLineText } from './logText';

const MAX_MESSAGE = 2_000;
const MAX_DATA = 4_000;

// Shared by every stderr logger of the process: a client repeating a failing request thousands
// of times a second gets a few warn and error lines per kind every 10 s, then one line with the
// count; a count still pending when the process exits is written then.
const throttle = new LogThrottle(
  (key, suppressed, windowMs) => {
    const [level, scope] = key.split('\u0000');
    process.stderr.write(`[toolwright] ${level} ${scope}: ${suppressed} more ${level} line(s) like the last ones were left out in ${windowMs / 1000} s\n`);
  },
  { windowMs: 10_000, burst: 5, maxKeys: 200, flushAtExit: true },
);

/**
 * A logger writing one line per entry to stderr, prefixed with a scope such as a tool name.
 * Each entry stays one line whatever its text holds: control characters (newlines, terminal
 * escape sequences) are written as `\uXXXX`, and messages and data are cut to a few thousand
 * characters. An `Error`'s stack frames follow on indented lines. Warnings and errors of one
 * kind (level, scope and message) beyond 5 in 10 s are counted, not written, and the count
 * is written once the 10 s are over, or when the process exits before.
 */
export function stderrLogger(scope: string): ToolLogger {
  const safeScope = logLineText(scope, 200);
  const write = (level: string, message: string, data?: unknown): void => {
    const text = logLineText(String(message), MAX_MESSAGE);
    if ((level === 'warn' || level === 'error') && !throttle.admit(`${level}\u0000${safeScope}\u0000${text}`, `${level}\u0000${safeScope}`)) return;
    const suffix = data === undefined ? '' : ` ${formatData(data)}`;
    process.stderr.write(`[toolwright] ${level} ${safeScope}: ${text}${suffix}\n`);
  };
  return {
    debug: (m, d) => write('debug', m, d),
    info: (m, d) => write('info', m, d),
    warn: (m, d) => write('warn', m, d),
    error: (m, d) => write('error', m, d),
  };
}

function formatData(data: unknown): string {
  if (data instanceof Error) return formatError(data);
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch {
    // A cycle, a BigInt: the plain string is the best there is.
  }
  return logLineText(json ?? String(data), MAX_DATA);
}

/** `Name: message` on the entry's line (escaped), then the stack's frames, each on its own indented line. */
function formatError(error: Error): string {
  const head = logLineText(`${error.name}: ${error.message}`, MAX_MESSAGE);
  let stack = typeof error.stack === 'string' ? error.stack : '';
  // V8's stack starts with `String(error)`, which may span lines of its own: the frames are the lines after it that start with "at ".
  const opening = String(error);
  if (stack.startsWith(opening)) stack = stack.slice(opening.length);
  const frames = stack
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 50)
    .map((line) => `    ${logLineText(cutText(line.trim(), 500))}`);
  return frames.length > 0 ? `${head}\n${frames.join('\n')}` : head;
}
