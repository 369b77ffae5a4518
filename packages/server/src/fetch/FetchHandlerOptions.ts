import type { HttpAuthOptions } from '../auth/HttpAuthOptions';
import type { Cluster } from '../http/Cluster';
import type { EventStoreFactory } from '../http/EventStore';
import type { CorsOptions } from '../http/HttpHandlerOptions';
import type { InitializeRate } from '../http/InitializeRateLimit';

/** Session limits of a stateful fetch handler (2025-11-25 sessions, kept in this isolate's memory). */
export interface FetchSessionOptions {
  /** A session with no request for this long is closed. Default 30 minutes. */
  idleTimeoutMs?: number;
  /** Live sessions in all: once reached, `initialize` gets HTTP 503 with Retry-After. No open session is closed to make room. Default 1000. */
  maxSessions?: number;
  /** Live sessions of one principal (an anonymous caller: of one client address); one more closes that caller's own least recently used. Default 100. */
  maxSessionsPerPrincipal?: number;
  /** How fast one principal (an anonymous caller: one client address) may send `initialize`; past it HTTP 429. Default `{ burst: 30, perMinute: 120 }`; `false` turns it off. */
  initializeRate?: InitializeRate | false;
  /**
   * The client address an anonymous caller's sessions and `initialize` rate are counted by. A
   * `Request` carries no address: without this, every anonymous caller counts as one. Deno:
   * keep `info.remoteAddr.hostname` from `Deno.serve((request, info) => ...)`; Bun:
   * `server.requestIP(request)?.address`; Workers: the `CF-Connecting-IP` header.
   */
  clientAddressOf?: (request: Request) => string | undefined;
}

/**
 * How the web-standard fetch handler serves an app (`createFetchHandler`): the same endpoint
 * rules as the node listener (`HttpHandlerOptions`), over `Request` and `Response`.
 */
export interface FetchHandlerOptions {
  /** The MCP endpoint. Default `/mcp`. */
  path?: string;
  /**
   * 2025-era requests without sessions: a fresh server per request, nothing kept between
   * requests; what serverless runtimes need (Workers, Vercel), where isolates do not share
   * memory. 2026-07-28 requests never have sessions. Default false (2025-era sessions in this
   * isolate's memory).
   */
  stateless?: boolean;
  /** Answer POSTs with one JSON body instead of an SSE stream (no progress or log notifications). Default false. */
  jsonResponse?: boolean;
  /** 2025-era session limits (not with `stateless`); see `FetchSessionOptions`. */
  sessions?: FetchSessionOptions;
  /** Origins allowed in the `Origin` header (exact `scheme://host[:port]` or `'*'`). Default: `http(s)://localhost`, `127.0.0.1` and `[::1]` on any port. Requests without an Origin are allowed. */
  allowedOrigins?: readonly string[];
  /**
   * Host names (without port) accepted in the `Host` header. A fetch handler cannot tell which
   * address a request arrived on, so by default only `localhost`, `127.0.0.1` and `[::1]` are
   * answered (DNS-rebinding defence): list the names you serve (`['mcp.example.com']`).
   */
  allowedHosts?: readonly string[];
  /** Largest accepted request body, in bytes; larger ones get 413. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Longest accepted request URL, in characters; longer ones get 414. Default 8192. */
  maxUrlLength?: number;
  /** Reading one POST body: a slower one gets 408. Default 30000 ms. */
  timeouts?: { bodyMs?: number };
  /** Enables CORS for browser clients (`true`: for `allowedOrigins`). Default off. */
  cors?: boolean | CorsOptions;
  /** Bearer-token authentication and RFC 9728 metadata (`auth.resource` is required). Default: none. */
  auth?: HttpAuthOptions;
  /** Resumable SSE streams of stateful sessions: a store per session. Default none (with a `cluster`: its event store). */
  eventStore?: EventStoreFactory;
  /**
   * Several instances sharing 2025-era sessions, events and notifications through one store
   * (`createRedisCluster` from `@toolwright/redis`), as the node listener's `cluster`: any
   * instance, fetch handler or node listener, serves any request of any session. With
   * `stateless` there are no sessions to share: 2026-07-28 `subscriptions/listen` streams still
   * hear of every instance's changes, and round states are accepted once across the cluster.
   */
  cluster?: Cluster;
  /** The `retry:` (ms) sent with each SSE stream's first event. Default: the client's own. */
  sseRetryMs?: number;
  /** Liveness at `GET /healthz`, readiness at `GET /readyz` (503 while shutting down). Default true. */
  health?: boolean;
  /** Where the reasons of refused and failed requests go (never to the client). Default: `console.error`. */
  logError?: (message: string) => void;
}
