import type { AuthInfoProvider } from '../auth/AuthInfoProvider';

/** `app.listen({ transport: 'stdio', ... })`. */
export interface StdioListenOptions {
  transport: 'stdio';
  /** Exit the process once stdin closes or a SIGINT/SIGTERM arrives and calls have finished. Default true with the process's streams, false with `stdin`/`stdout` given. */
  exitOnClose?: boolean;
  /** How long shutdown waits for running calls, then for stdout to take their answers, in milliseconds (each). Default 10000. */
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
