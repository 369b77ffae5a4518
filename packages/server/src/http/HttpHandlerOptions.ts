import type { IncomingMessage } from 'node:http';
import type { EndpointOptions, EndpointSessionOptions } from './EndpointOptions';
import type { RequestLogLevel } from './requestLog';

export type { CorsOptions } from './EndpointOptions';

/** Session limits of the node listener's 2025-era sessions (see `EndpointSessionOptions`), counted by node's `IncomingMessage`. */
export type SessionOptions<Req = IncomingMessage> = EndpointSessionOptions<Req>;

/**
 * How long a client may take, in milliseconds. None of them limits how long a response
 * lasts: an SSE stream stays open as long as its call or session does.
 */
export interface HttpTimeouts {
  /** From connecting (or the previous response) to the end of the request headers. Default 10000. `app.listen` only. */
  headersMs?: number;
  /** From the start of a request to its last body byte. Default 30000. `app.listen` only. */
  requestMs?: number;
  /** An idle keep-alive connection is closed after this long. Default 5000. `app.listen` only. */
  idleMs?: number;
  /** Reading one POST body, once its headers arrived; a slower one gets 408. Default 30000. Also applies to `createHttpHandler`. */
  bodyMs?: number;
}

/**
 * What the default in-memory event stores keep for `Last-Event-ID` replay. Past a limit the
 * oldest events fall out: a session's own first, never another session's. A `cluster` keeps
 * events in its own store, with its own limits (`createRedisCluster`).
 */
export interface EventStoreLimits {
  /** Events kept per session. Default 1000. */
  maxEventsPerSession?: number;
  /** Bytes of events kept per session; an event bigger than this alone is sent but not kept. Default 4 MiB. */
  maxBytesPerSession?: number;
  /** Bytes of events kept by all sessions of the endpoint together. Default 64 MiB. */
  maxBytesTotal?: number;
}

/**
 * How the Streamable HTTP endpoint behaves on node; shared by `app.listen({ transport: 'http' })`
 * and `createHttpHandler`. What it shares with the fetch handler is `EndpointOptions`.
 */
export interface HttpHandlerOptions extends EndpointOptions<IncomingMessage> {
  /** Header, request, keep-alive and body timeouts; see `HttpTimeouts` for the defaults. */
  timeouts?: HttpTimeouts;
  /** What the default in-memory event stores keep; see `EventStoreLimits`. */
  eventStoreLimits?: EventStoreLimits;
  /**
   * Which Streamable HTTP transport answers the endpoint. `'toolwright'` (default) writes
   * straight to node's request and response; `'sdk'` uses the SDK's
   * `StreamableHTTPServerTransport` (node -> web Request/Response -> node on every POST),
   * kept for comparison and as a fallback. Every rule above applies to both.
   */
  httpTransport?: 'toolwright' | 'sdk';
  /** Serve the legacy HTTP+SSE transport (2024-11-05 clients) at `GET /sse` + `POST /messages`. Default false. */
  legacySse?: boolean;
  /** One JSON line per request on stderr at this level or above. Default 'info'. */
  requestLogLevel?: RequestLogLevel;
  /** @deprecated The old name of `requestLogLevel`, easy to mistake for the app's MCP `logLevel`; use `requestLogLevel`. */
  logLevel?: RequestLogLevel;
  /** Where log lines go. Default: stderr. */
  logWrite?: (line: string) => void;
}
