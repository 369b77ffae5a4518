import type { HttpHandlerOptions } from './HttpHandlerOptions';

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
