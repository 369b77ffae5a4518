import type { ToolLogger } from '@toolwright/core';

/** The authorization server's log when it is given no `logger`: the console (stderr for warnings and errors). */
export const consoleLogger: ToolLogger = Object.freeze({
  debug: (message: string) => console.debug(message),
  info: (message: string) => console.info(message),
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
});
