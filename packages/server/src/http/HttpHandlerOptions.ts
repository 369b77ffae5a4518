import type { IncomingMessage } from 'node:http';
import type { HttpAuthOptions } from '../auth/HttpAuthOptions';
import type { Cluster } from './Cluster';
import type { EventStoreFactory } from './EventStore';
import type { InitializeRate } from './InitializeRateLimit';
import type { RequestLogLevel } from './requestLog';

/**
 * Session limits for stateful mode. One caller can never close another caller's session:
 * each principal (an anonymous caller: each client address) has its own share, and the
 * total only refuses new sessions.
 */
export interface SessionOptions {
  /** A session with no request for this long is closed. Default 30 minutes. */
  idleTimeoutMs?: number;
  /**
   * Live sessions in all, a last resort: once reached, `initialize` gets HTTP 503 with
   * Retry-After until a session ends or expires. No open session is closed to make room.
   * Default 1000. With a `cluster`, it holds across the cluster.
   */
  maxSessions?: number;
  /**
   * Live sessions of one principal (an anonymous caller: of one client address). Opening one
   * more closes that caller's own least recently used session. Default 100.
   */
  maxSessionsPerPrincipal?: number;
  /**
   * How fast one principal (an anonymous caller: one client address) may send `initialize`:
   * past it, HTTP 429 with Retry-After and a JSON-RPC error. Counted by each instance.
   * Default `{ burst: 30, perMinute: 120 }`; `false` turns it off.
   */
  initializeRate?: InitializeRate | false;
  /**
   * The client address an anonymous caller is counted by. Default: the connection's remote
   * address. Behind a reverse proxy every client has the proxy's address: return the
   * client's from the header your proxy sets (only if the proxy overwrites it).
   */
  clientAddressOf?: (req: IncomingMessage) => string | undefined;
}

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

/** Cross-origin access for browser clients. Off unless given. */
export interface CorsOptions {
  /** Origins allowed to call cross-origin. Default: `allowedOrigins` (localhost origins unless set). */
  origins?: readonly string[];
  /** How long browsers may cache a preflight, in seconds. Default 600. */
  maxAgeSeconds?: number;
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

/** How the Streamable HTTP endpoint behaves; shared by `app.listen({ transport: 'http' })` and `createHttpHandler`. */
export interface HttpHandlerOptions {
  /** The MCP endpoint. Default `/mcp`. */
  path?: string;
  /** A fresh server per request, no sessions: for load-balanced deployments. Default false. */
  stateless?: boolean;
  /** Answer POSTs with one JSON body instead of an SSE stream (no progress or log notifications). Default false. */
  jsonResponse?: boolean;
  sessions?: SessionOptions;
  /**
   * Origins allowed in the `Origin` header (exact `scheme://host[:port]` or `'*'`). A request
   * with another Origin gets 403. Default: `http(s)://localhost`, `127.0.0.1` and `[::1]` on any port.
   * Requests without an Origin (non-browser clients) are always allowed.
   */
  allowedOrigins?: readonly string[];
  /**
   * Host names (without port) accepted in the `Host` header. Default: when the connection
   * arrived on a loopback address, only `localhost`, `127.0.0.1` and `[::1]` (DNS-rebinding
   * defence); otherwise any. Set it when you serve a public name.
   */
  allowedHosts?: readonly string[];
  /** Largest accepted request body, in bytes; larger ones get 413. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Most bytes an SSE stream may hold unsent because its client reads too slowly (or not at
   * all); past it the stream is closed, and a resumable client reconnects with
   * `Last-Event-ID` for the rest. Default 16 MiB.
   */
  maxBufferedBytes?: number;
  /** Header, request, keep-alive and body timeouts; see `HttpTimeouts` for the defaults. */
  timeouts?: HttpTimeouts;
  /** Enables CORS for browser clients (`true`: for `allowedOrigins`). Default off. */
  cors?: boolean | CorsOptions;
  /** Bearer-token authentication and RFC 9728 metadata. Default: none. */
  auth?: HttpAuthOptions;
  /**
   * Resumability (stateful SSE mode): a store per session that keeps sent events so a client
   * reconnecting with `Last-Event-ID` gets what it missed. Default: an in-memory store per
   * session within `eventStoreLimits`; `false` disables it.
   */
  eventStore?: EventStoreFactory | false;
  /** What the default in-memory event stores keep; see `EventStoreLimits`. */
  eventStoreLimits?: EventStoreLimits;
  /**
   * Several instances behind a load balancer, sharing sessions, events and notifications
   * through one store (`createRedisCluster` from `@toolwright/redis`): any instance serves
   * any request of any session, no sticky sessions needed. Its event store is the default
   * `eventStore`. `sessions` limits then hold across the cluster. Default: none, everything
   * in this process's memory.
   */
  cluster?: Cluster;
  /**
   * The `retry:` (ms) sent with each SSE stream's first event: how long a client waits before
   * it reconnects to a stream the server closed (`ctx.closeStream()`). Default: none, the
   * client's own default.
   */
  sseRetryMs?: number;
  /** Liveness at `GET /healthz`, readiness at `GET /readyz` (503 while shutting down). Default true. */
  health?: boolean;
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
