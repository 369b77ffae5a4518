import type { AuthInfoProvider } from '../auth/AuthInfoProvider';
import type { HttpHandlerOptions } from '../http/HttpHandlerOptions';

export interface StdioListenOptions {
  transport: 'stdio';
  /** Exit the process once stdin closes or a SIGINT/SIGTERM arrives and calls have finished. Default true. */
  exitOnClose?: boolean;
  /** How long shutdown waits for running calls, in milliseconds. Default 10000. */
  drainTimeoutMs?: number;
  /**
   * Who the stdio caller is, for tools with `@RequireScopes`/`@RequireRoles` (stdio has no
   * tokens: the process that starts the server decides, e.g. `envAuthInfo()`). Default: anonymous.
   */
  authInfo?: AuthInfoProvider;
  /** Streams to use instead of the process's (for tests). */
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/** `app.listen({ transport: 'http', ... })`: everything `createHttpHandler` takes, plus where to listen. */
export interface HttpListenOptions extends HttpHandlerOptions {
  transport: 'http';
  /** Default 3000; 0 picks a free port (read it from the listener). */
  port?: number;
  /** Default 127.0.0.1 (this machine only). Binding wider needs `allowedHosts` and `auth`. */
  host?: string;
  /** How long shutdown waits for requests being answered, in milliseconds. Default 10000. */
  drainTimeoutMs?: number;
  /** Most connections open at once; more are refused as they arrive. Keep it under the process's file-descriptor limit. Default 2048. */
  maxConnections?: number;
  /** On SIGINT/SIGTERM: shut down gracefully, then exit 0. Default true. */
  exitOnSignal?: boolean;
}

export type ListenOptions = StdioListenOptions | HttpListenOptions;
