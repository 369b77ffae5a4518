import { createMcpHandler } from './sdk';

/**
 * The SDK's `createMcpHandler`, with what it writes to `console.warn` while it makes the handler
 * sent to `warn` instead. Made with `responseMode: 'json'` it warns that notifications sent before
 * a result are dropped, which is what `jsonResponse` documents; made for an app, that line belongs
 * in the app's logger with the transports' other lines. The console is swapped only for the
 * synchronous call that makes the handler.
 */
export function createSdkMcpHandler(
  factory: Parameters<typeof createMcpHandler>[0],
  options: Parameters<typeof createMcpHandler>[1],
  warn: (message: string) => void,
): ReturnType<typeof createMcpHandler> {
  const consoleWarn = console.warn;
  console.warn = (...data: unknown[]) => warn(data.map(String).join(' '));
  try {
    return createMcpHandler(factory, options);
  } finally {
    console.warn = consoleWarn;
  }
}
