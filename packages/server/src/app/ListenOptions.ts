export interface StdioListenOptions {
  transport: 'stdio';
  /** Exit the process once stdin closes or a SIGINT/SIGTERM arrives and calls have finished. Default true. */
  exitOnClose?: boolean;
  /** How long shutdown waits for running calls, in milliseconds. Default 10000. */
  drainTimeoutMs?: number;
  /** Streams to use instead of the process's (for tests). */
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

export interface HttpListenOptions {
  transport: 'http';
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The MCP endpoint. Default `/mcp`. */
  path?: string;
  /** A fresh server per request, no sessions: for load-balanced deployments. */
  stateless?: boolean;
  /** Answer with one JSON body instead of an SSE stream. */
  jsonResponse?: boolean;
}

export type ListenOptions = StdioListenOptions | HttpListenOptions;
