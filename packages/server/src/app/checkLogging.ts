import { ConfigError, LOG_LEVELS, type ToolLogger } from '@toolwright/core';

const METHODS = ['debug', 'info', 'warn', 'error'] as const;

/**
 * Checks the app's `logger` and `logLevel` at start. A logger without one of its four methods
 * would throw a TypeError the first time the framework logs at that level (often while it
 * reports another failure), and an unknown `logLevel` would silently decide which `ctx.log`
 * lines reach clients; both are refused here with a `ConfigError` that names the option.
 */
export function checkLogging(options: { readonly logger?: ToolLogger; readonly logLevel?: string }): void {
  const { logger, logLevel } = options;
  if (logger !== undefined) {
    if ((typeof logger !== 'object' && typeof logger !== 'function') || logger === null) {
      throw new ConfigError(
        `Toolwright: \`logger\` is ${logger === null ? 'null' : `a ${typeof logger}`}, not a logger. Pass an object with debug, info, warn and error methods (console, a pino logger, stderrLogger('app')), or leave it out to log to stderr.`,
      );
    }
    const missing = METHODS.filter((method) => typeof (logger as unknown as Record<string, unknown>)[method] !== 'function');
    if (missing.length > 0) {
      throw new ConfigError(
        `Toolwright: \`logger\` has no ${missing.map((m) => `${m}()`).join(', ')} method${missing.length > 1 ? 's' : ''}; the framework calls debug, info, warn and error. Add ${missing.length > 1 ? 'them' : 'it'} (e.g. warn: (message, data) => myLog.warning(message, data)), or leave \`logger\` out to log to stderr.`,
      );
    }
  }
  if (logLevel !== undefined && !(LOG_LEVELS as readonly unknown[]).includes(logLevel)) {
    throw new ConfigError(`Toolwright: \`logLevel\` is ${JSON.stringify(logLevel)}, not an MCP log level. Use one of ${LOG_LEVELS.map((l) => `'${l}'`).join(', ')}, or leave it out for 'info'.`);
  }
}
