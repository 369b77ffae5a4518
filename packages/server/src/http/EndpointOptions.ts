import type { HttpAuthOptions } from '../auth/HttpAuthOptions';
import type { Cluster } from './Cluster';
import type { EventStoreFactory } from './EventStore';
import type { InitializeRate } from './InitializeRateLimit';

/**
 * Session limits for 2025-era sessions. One caller can never close another caller's session:
 * each principal (an anonymous caller: each client address) has its own share, and the total
 * only refuses new sessions. `Req` is the runtime's request: node's `IncomingMessage` for the
 * node listener, `Request` for the fetch handler.
 */
export interface EndpointSessionOptions<Req> {
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
   * The client address an anonymous caller is counted by. The node listener's default: the
   * connection's remote address; behind a reverse proxy every client has the proxy's address,
   * so return the client's from the header your proxy sets (only if the proxy overwrites it).
   * A fetch `Request` carries no address: without this, every anonymous caller counts as one.
   * Deno: keep `info.remoteAddr.hostname` from `Deno.serve((request, info) => ...)`; Bun:
   * `server.requestIP(request)?.address`; Workers: the `CF-Connecting-IP` header.
   */
  clientAddressOf?: (req: Req) => string | undefined;
}

/** Cross-origin access for browser clients. Off unless given. */
export interface CorsOptions {
  /** Origins allowed to call cross-origin. Default: `allowedOrigins` (localhost origins unless set). */
  origins?: readonly string[];
  /** How long browsers may cache a preflight, in seconds. Default 600. */
  maxAgeSeconds?: number;
}

/**
 * What an MCP endpoint's options mean alike on the node listener (`HttpHandlerOptions`,
 * `app.listen({ transport: 'http' })`) and the web-standard fetch handler
 * (`FetchHandlerOptions`); each adds what only its runtime has. `Req` is the runtime's request.
 */
export interface EndpointOptions<Req> {
  /** The MCP endpoint. Default `/mcp`. */
  path?: string;
  /**
   * 2025-era requests without sessions: a fresh server per request, nothing kept between
   * requests; for load balancers without a `cluster`, and serverless runtimes (Workers, Vercel)
   * whose isolates share no memory. 2026-07-28 requests never have sessions. Default false.
   */
  stateless?: boolean;
  /** Answer POSTs with one JSON body instead of an SSE stream (no progress or log notifications). Default false. */
  jsonResponse?: boolean;
  /** 2025-era session limits (not with `stateless`); see `EndpointSessionOptions`. */
  sessions?: EndpointSessionOptions<Req>;
  /**
   * Origins allowed in the `Origin` header (exact `scheme://host[:port]` or `'*'`). A request
   * with another Origin gets 403. Default: `http(s)://localhost`, `127.0.0.1` and `[::1]` on any port.
   * Requests without an Origin (non-browser clients) are always allowed.
   */
  allowedOrigins?: readonly string[];
  /**
   * Host names (without port) accepted in the `Host` header; another gets 403 (DNS-rebinding
   * defence). Default: only `localhost`, `127.0.0.1` and `[::1]` where the request arrived on a
   * loopback address, and any elsewhere. A fetch handler cannot tell which address a request
   * arrived on, so it answers only the loopback names unless this lists the names you serve
   * (`['mcp.example.com']`). Set it when you serve a public name. Ports are not compared: an
   * entry with one (`'mcp.example.com:443'`) is refused at start with a ConfigError.
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
  /** Longest accepted request URL (`http://host/path?query`), in characters; longer ones get 414. Default 8192. */
  maxUrlLength?: number;
  /** How long a client may take; see the runtime's options for more. */
  timeouts?: { /** Reading one POST body, once its headers arrived; a slower one gets 408. Default 30000 ms. */ bodyMs?: number };
  /** Enables CORS for browser clients (`true`: for `allowedOrigins`). Default off. */
  cors?: boolean | CorsOptions;
  /** Bearer-token authentication and RFC 9728 metadata (on a fetch handler `auth.resource` is required: it cannot tell which URL clients reach it by). Default: none. */
  auth?: HttpAuthOptions;
  /**
   * Resumability (stateful SSE mode): a store per session that keeps sent events so a client
   * reconnecting with `Last-Event-ID` gets what it missed; `false`: none. Default: the
   * `cluster`'s; else the node listener keeps them in memory (`eventStoreLimits`), the fetch
   * handler keeps none.
   */
  eventStore?: EventStoreFactory | false;
  /**
   * Several instances behind a load balancer, sharing 2025-era sessions, events and
   * notifications through one store (`createRedisCluster` from `@toolwright/redis`): any
   * instance, node listener or fetch handler, serves any request of any session, no sticky
   * sessions needed. `sessions` limits then hold across the cluster. With `stateless` there
   * are no sessions to share: 2026-07-28 `subscriptions/listen` streams still hear of every
   * instance's changes, and round states are accepted once across the cluster. Default: none,
   * everything in this process's (or isolate's) memory.
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
}
