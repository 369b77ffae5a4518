import { Pending } from '../ground/Pending';
import { randomUUID } from 'node:crypto';
import { ConfigError } from '@toolwright/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@toolwright/core';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '../sdk/sdk';
import { createModernHttp, isModernHttpRequest, type ModernHttp } from '../serving/createModernHttp';
import { isModernMessage } from '../sdk/isModernMessage';
import { fastPathsOf } from '../lanes/fastPathsOf';
import type { ServerFactory } from '../serving/ServerFactory';
import { createAuthenticator } from '../auth/authenticateRequest';
import { missingScopes } from '../auth/canAccess';
import { protectedResourceMetadata } from '../auth/protectedResourceMetadata';
import { createCors } from './cors';
import { createStreamableTransport, type StreamableTransport } from './createStreamableTransport';
import type { NodeStreamableTransport } from './NodeStreamableTransport';
import { bindSessionState } from '../pipeline/sessionState';
import type { EventStoreFactory } from './EventStore';
import { createHostPolicy } from './hostPolicy';
import type { HttpHandlerOptions } from './HttpHandlerOptions';
import type { HttpSession } from './HttpSession';
import { InMemoryEventStore } from './InMemoryEventStore';
import { acceptsMediaType } from './acceptsMediaType';
import { calledTool, firstMessage, isInitialize } from './jsonRpcShape';
import { createLegacySse } from './legacySse';
import { createOriginPolicy } from './originPolicy';
import { principalOf } from './principalOf';
import { readJsonBody } from './readJsonBody';
import { invalidMessageError, type InvalidMessageError } from '../rpc/invalidMessageError';
import { jsonRpcKind } from '../rpc/jsonRpcKind';
import { createRequestLogger, requestLogLevelOf, type RequestLogEntry } from './requestLog';
import { sendJson, sendRpcError } from './respond';
import { SessionStore } from './SessionStore';
import type { SessionRecord } from './Cluster';
import { cancellationsOf, foreignAnswers, leaveFanOutToCluster, listenToChanges, publishChanges, refuseClusterDown, restoreRequests, routeRoundTrips, sessionChangesOf } from './clusterSupport';

type Request = IncomingMessage & { auth?: AuthInfo; body?: unknown };
type Next = (error?: unknown) => void;

/** A request handler for node:http, express (`app.use(handler)`) and hono (`c.env.incoming/outgoing`). */
export interface HttpHandler {
  (req: IncomingMessage, res: ServerResponse, next?: Next): Promise<void>;
  /** Live stateful sessions. */
  readonly sessionCount: number;
  /** True once `close()` started: new requests get 503 and `/readyz` reports not ready. */
  readonly closing: boolean;
  /**
   * Graceful stop: refuses new requests, waits up to `drainTimeoutMs` (default 10000) for
   * requests already being answered, then closes every session (ending their SSE streams).
   */
  close(options?: { drainTimeoutMs?: number }): Promise<void>;
}

const DEFAULTS = { path: '/mcp', maxBodyBytes: 4 * 1024 * 1024, bodyTimeoutMs: 30_000, idleTimeoutMs: 30 * 60_000, maxSessions: 1000, maxBufferedBytes: 16 * 1024 * 1024 };
/** How long shutdown waits for abandoned calls' error responses to be written. */
const ABANDON_GRACE_MS = 1_000;
const SUPPORTED = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);
/** The version a server assumes for a request without MCP-Protocol-Version (spec 2025-11-25, transports). */
const ASSUMED_VERSION = '2025-03-26';

/**
 * Serves an app's MCP endpoint over Streamable HTTP (spec 2025-11-25) through a transport
 * (`NodeStreamableTransport` by default, the SDK's with `httpTransport: 'sdk'`). Everything
 * the SDK leaves to the application happens here, before a request reaches it: Host/Origin
 * checks, CORS, body limits, bearer auth and RFC 9728 metadata, session routing with limits
 * and principal binding, health endpoints and request logs.
 */
export function createHttpHandler(app: ServerFactory, options: HttpHandlerOptions = {}): HttpHandler {
  const mcpPath = options.path ?? DEFAULTS.path;
  const stateless = options.stateless === true;
  const jsonResponse = options.jsonResponse === true;
  const transportKind = options.httpTransport ?? 'toolwright';
  const maxBody = options.maxBodyBytes ?? DEFAULTS.maxBodyBytes;
  const bodyTimeoutMs = options.timeouts?.bodyMs ?? DEFAULTS.bodyTimeoutMs;
  const health = options.health !== false;
  const requestLogLevel = requestLogLevelOf(options);
  const log = createRequestLogger(requestLogLevel, options.logWrite);
  const hostAllowed = createHostPolicy(options.allowedHosts);
  const originAllowed = createOriginPolicy(options.allowedOrigins);
  const cors = options.cors ? createCors(options.cors === true ? {} : options.cors, originAllowed) : undefined;
  const metadata = options.auth ? protectedResourceMetadata(options.auth) : undefined;
  const authenticate = options.auth && metadata ? createAuthenticator(options.auth, metadata) : undefined;
  const cluster = options.cluster;
  if (cluster && transportKind === 'sdk') {
    throw new ConfigError("Toolwright: `cluster` needs the toolwright HTTP transport (the SDK's cannot take over a session opened elsewhere). Remove httpTransport: 'sdk'.");
  }
  const eventStores: EventStoreFactory | undefined =
    options.eventStore === false || jsonResponse ? undefined : (options.eventStore ?? cluster?.eventStore ?? (() => new InMemoryEventStore()));

  const limits = { idleTimeoutMs: options.sessions?.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs, maxSessions: options.sessions?.maxSessions ?? DEFAULTS.maxSessions };
  // With a cluster this holds the local copies of shared sessions: closing one here ends nothing elsewhere.
  const store = new SessionStore(limits, closeSession);
  /** Cluster: the POST streams of this instance's copies get ids no other instance uses. */
  const instanceId = randomUUID().slice(0, 8);
  /** Cluster: copies being made of sessions opened elsewhere, so concurrent requests make one. */
  const restoring = new Map<string, Promise<HttpSession>>();
  /** Cluster: the log level each local copy was last given. */
  const copiedLevel = new WeakMap<HttpSession, string | undefined>();
  const clusterError = (error: Error) => process.stderr.write(`toolwright http: cluster: ${error.message}\n`);
  const stopPublishing = cluster && !stateless ? publishChanges(app, cluster, clusterError) : undefined;
  const stopEnding = cluster?.sessions.onEnded((id) => {
    const copy = store.touch(id);
    if (copy) void closeSession(copy, 'ended on another instance');
  });
  // Answers to this instance's server-to-client requests that reached another instance.
  const stopRelay = cluster?.onRelay(instanceId, (id, message) => {
    const copy = store.touch(id);
    if (copy && !copy.closed) (copy.transport as NodeStreamableTransport).deliver(message as never);
  });
  stopRelay?.catch(clusterError);
  // A session with a request or GET stream open here does not expire (as in memory): its record is kept alive meanwhile.
  const keepOpenAlive = cluster
    ? setInterval(() => {
        for (const session of store.values()) {
          if (session.open === 0 || session.closed) continue;
          cluster.sessions.touch(session.id, limits.idleTimeoutMs).then(
            (record) => void (record ? undefined : closeSession(session, 'expired or ended elsewhere')),
            () => {},
          );
        }
      }, Math.max(500, Math.min(60_000, Math.floor(limits.idleTimeoutMs / 3))))
    : undefined;
  keepOpenAlive?.unref();
  const legacy = options.legacySse ? createLegacySse(app, mcpPath) : undefined;
  // The 2026-07-28 era: made on its first request, so 2025-only traffic never loads it.
  let modern: ModernHttp | undefined;
  const modernEra = () =>
    (modern ??= createModernHttp((context) => app.createServer(context), {
      jsonResponse,
      subscribe: (notifier) => listenToChanges(app, cluster, notifier),
      maxBufferedBytes: options.maxBufferedBytes ?? DEFAULTS.maxBufferedBytes,
      // What the SDK refused is answered on the wire; its reasons are for debugging.
      onerror: (error) => {
        if (requestLogLevel === 'debug') (options.logWrite ?? ((line) => process.stderr.write(line)))(`${JSON.stringify({ time: new Date().toISOString(), level: 'debug', msg: 'mcp', error: error.message })}\n`);
      },
    }));

  let closing = false;
  /** The POSTs being answered (their JSON or SSE response not yet over), for the drain. */
  const posts = new Pending<ServerResponse>();
  /** Stateless requests being answered, to abandon on shutdown. */
  const statelessTransports = new Set<StreamableTransport>();

  async function closeSession(session: HttpSession, _reason: string): Promise<void> {
    if (session.closed) return;
    session.closed = true;
    store.remove(session.id);
    try {
      await session.server.close();
    } finally {
      await session.eventStore?.close?.();
    }
  }

  async function openSession(auth: AuthInfo | undefined, body: unknown): Promise<HttpSession> {
    // What the SDK's initialize handler answers: the client's version if supported, else the latest.
    const params = firstMessage(body)?.params;
    const requested = params?.protocolVersion;
    const protocolVersion = typeof requested === 'string' && SUPPORTED.has(requested) ? requested : LATEST_PROTOCOL_VERSION;
    const id = randomUUID();
    const principal = principalOf(auth);
    if (cluster) {
      const record: SessionRecord = { id, initialize: (params ?? {}) as Record<string, unknown>, protocolVersion, principal, subscriptions: [] };
      await cluster.sessions.create(record, limits);
    }
    return startSession(id, principal, protocolVersion);
  }

  /** The server and transport of a session: a new one, or (cluster) the local copy of one opened elsewhere. */
  async function startSession(id: string, principal: string | undefined, protocolVersion: string, record?: SessionRecord): Promise<HttpSession> {
    const eventStore = eventStores?.(id);
    const transport = createStreamableTransport(transportKind, {
      sessionId: id,
      jsonResponse,
      eventStore,
      retryMs: options.sseRetryMs,
      maxBufferedBytes: options.maxBufferedBytes,
      ...(cluster && { streamIdPrefix: `${instanceId}-` }),
    });
    if (cluster) leaveFanOutToCluster(transport);
    const server = app.createServer();
    if (cluster) bindSessionState(server, cluster.sessionState(id));
    const session: HttpSession = {
      id,
      server,
      transport,
      eventStore,
      principal,
      protocolVersion,
      lastSeen: Date.now(),
      open: 0,
      closed: false,
    };
    // Runs on DELETE, on eviction/expiry and on shutdown alike.
    transport.onclose = () => void closeSession(session, 'closed');
    await server.connect(transport);
    if (cluster) routeRoundTrips(transport, instanceId);
    if (record) {
      await (transport as NodeStreamableTransport).restore(restoreRequests(record));
      copiedLevel.set(session, record.logLevel);
    }
    await store.add(session);
    return session;
  }

  /** Cluster: the session's local copy, made from its record if this instance has none yet; its log level brought up to date. */
  async function copyOf(record: SessionRecord): Promise<HttpSession> {
    let session = store.touch(record.id);
    if (!session) {
      let pending = restoring.get(record.id);
      if (!pending) {
        pending = startSession(record.id, record.principal, record.protocolVersion, record).finally(() => restoring.delete(record.id));
        restoring.set(record.id, pending);
      }
      session = await pending;
    }
    if (copiedLevel.get(session) !== record.logLevel && record.logLevel) {
      copiedLevel.set(session, record.logLevel);
      await (session.transport as NodeStreamableTransport).restore([{ method: 'logging/setLevel', params: { level: record.logLevel } }]);
    }
    return session;
  }

  function refuseClosing(res: ServerResponse): void {
    sendRpcError(res, 503, -32000, 'Service unavailable: the server is shutting down. Retry on another instance.', { Connection: 'close', 'Retry-After': '1' });
  }

  /** Counts a POST until its response (JSON or SSE stream) is over, so shutdown can wait for it. */
  function trackPost(res: ServerResponse): void {
    posts.add(res);
    res.once('close', () => void posts.delete(res));
  }

  async function handleMcp(req: Request, res: ServerResponse, entry: Partial<RequestLogEntry>): Promise<void> {
    const method = req.method ?? 'GET';
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
      return sendRpcError(res, 405, -32000, `Method not allowed: use POST (messages), GET (the server's SSE stream) or DELETE (end the session) on ${mcpPath}.`, {
        Allow: stateless ? 'POST' : 'GET, POST, DELETE',
      });
    }
    if (stateless && method !== 'POST') {
      return sendRpcError(res, 405, -32000, 'Method not allowed: this server is stateless (no sessions, no server-initiated stream); use POST.', { Allow: 'POST' });
    }

    let auth: AuthInfo | undefined;
    if (authenticate) {
      const outcome = await authenticate(req);
      if (!outcome.ok) return sendJson(res, outcome.status, outcome.body, { 'WWW-Authenticate': outcome.challenge });
      auth = outcome.authInfo;
      req.auth = auth;
    }

    let body: unknown;
    if (method === 'POST') {
      const accept = req.headers.accept;
      if (!acceptsMediaType(accept, 'application/json') || !acceptsMediaType(accept, 'text/event-stream')) {
        return sendRpcError(res, 406, -32000, 'Not Acceptable: the Accept header must list both application/json and text/event-stream.');
      }
      if (!isJsonContentType(req.headers['content-type'])) {
        return sendRpcError(res, 415, -32000, 'Unsupported Media Type: send the body with Content-Type: application/json.');
      }
      const read = await readJsonBody(req, maxBody, bodyTimeoutMs);
      if (!read.ok) {
        if (read.status !== 400) res.setHeader('Connection', 'close');
        return sendRpcError(res, read.status, read.code, read.message);
      }
      body = read.value;
      const invalid = invalidMessageOf(body);
      if (invalid) return sendJson(res, 400, invalid);
      // While draining, only the client's answers get in: responses to the server's requests, and 2026-07-28 retries carrying input responses.
      if (closing && hasRequest(body) && !isRoundAnswer(body)) return refuseClosing(res);
      const first = firstMessage(body);
      if (first) {
        if (typeof first.method === 'string') entry.rpc = first.method;
        if (typeof first.id === 'string' || typeof first.id === 'number') entry.id = first.id;
      }
      // Scopes are checked here too, so a caller missing them gets HTTP 403 with the scopes to request.
      const tool = metadata ? calledTool(body) : undefined;
      if (tool !== undefined) {
        const refusal = scopeRefusal(tool, auth);
        if (refusal) return sendJson(res, refusal.status, refusal.body, { 'WWW-Authenticate': refusal.challenge });
      }
    } else if (method === 'GET' && !acceptsMediaType(req.headers.accept, 'text/event-stream')) {
      return sendRpcError(res, 406, -32000, 'Not Acceptable: the Accept header of a GET must list text/event-stream.');
    }

    // Decided per request, as 2026-07-28 says: a request claiming that era is served without a session.
    if (method === 'POST' && isModernHttpRequest(req, body)) {
      // A subscriptions/listen stream stays open until the client or shutdown ends it: shutdown does not wait for it.
      if (firstMessage(body)?.method !== 'subscriptions/listen') trackPost(res);
      return modernEra().handle(req, res, body, auth);
    }

    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !SUPPORTED.has(version)) {
      return sendRpcError(res, 400, -32000, `Bad Request: unsupported MCP-Protocol-Version '${version}'. Supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`);
    }

    if (stateless) {
      trackPost(res);
      const transport = createStreamableTransport(transportKind, { sessionId: undefined, jsonResponse, eventStore: undefined, retryMs: undefined, maxBufferedBytes: options.maxBufferedBytes });
      statelessTransports.add(transport);
      // Our transport: plain tool calls may be answered without building a server (see FastPaths).
      const fastPaths = transportKind === 'toolwright' ? fastPathsOf(app) : undefined;
      let exchange: { close(): Promise<void> };
      if (fastPaths) exchange = fastPaths.serveStateless(transport, () => app.createServer(), ignoreError);
      else {
        const server = app.createServer();
        exchange = server;
        await server.connect(transport);
      }
      res.once('close', () => {
        statelessTransports.delete(transport);
        void exchange.close();
      });
      return transport.handleRequest(req, res, body);
    }

    const sessionId = req.headers['mcp-session-id'];
    let session: HttpSession | undefined;
    if (typeof sessionId === 'string' && cluster) {
      let record: SessionRecord | undefined;
      try {
        record = await cluster.sessions.touch(sessionId, limits.idleTimeoutMs);
        if (record && record.principal === principalOf(auth)) {
          if (method === 'DELETE') await cluster.sessions.end(sessionId);
          else for (const change of sessionChangesOf(body)) await cluster.sessions.update(sessionId, change);
          if (method === 'POST') {
            const split = foreignAnswers(body, instanceId);
            for (const answer of split.foreign) await cluster.relay(answer.instance, sessionId, answer.message);
            for (const cancel of cancellationsOf(body)) await cluster.relay('*', sessionId, cancel);
            if (split.foreign.length > 0 && (split.body === undefined || (Array.isArray(split.body) && split.body.length === 0))) {
              res.writeHead(202, { 'mcp-session-id': sessionId }).end();
              return;
            }
            body = split.body;
          }
        }
      } catch (error) {
        return refuseClusterDown(res, error);
      }
      if (!record) {
        const stale = store.touch(sessionId);
        if (stale) void closeSession(stale, 'expired or ended elsewhere');
      }
      session = record && record.principal === principalOf(auth) ? await copyOf(record) : undefined;
    }
    if (typeof sessionId === 'string') {
      if (!cluster) session = store.touch(sessionId);
      if (!session || session.principal !== principalOf(auth)) {
        return sendRpcError(res, 404, -32001, 'Session not found: it expired, was closed, or belongs to another caller. Start a new session with initialize.');
      }
      // 2025-03-26 is what the spec says a server assumes when the header is missing, so it counts as none (the conformance suite sends it).
      if (typeof version === 'string' && version !== session.protocolVersion && version !== ASSUMED_VERSION) {
        return sendRpcError(res, 400, -32000, `Bad Request: MCP-Protocol-Version '${version}' differs from the version this session negotiated, '${session.protocolVersion}'. Send '${session.protocolVersion}'.`);
      }
      entry.session = session.id;
    } else if (method === 'POST' && isInitialize(body)) {
      try {
        session = await openSession(auth, body);
      } catch (error) {
        if (!cluster) throw error;
        return refuseClusterDown(res, error);
      }
      entry.session = session.id;
    } else {
      return sendRpcError(res, 400, -32000, 'Bad Request: the Mcp-Session-Id header is required. Send initialize first and repeat the session id it returns on every request.');
    }

    session.open++;
    const current = session;
    res.once('close', () => {
      current.open--;
      current.lastSeen = Date.now();
    });
    if (method === 'POST') trackPost(res);
    await session.transport.handleRequest(req, res, body);
  }

  function scopeRefusal(toolName: string, auth: AuthInfo | undefined) {
    const access = app.toolAccess(toolName);
    const missing = missingScopes(access, auth);
    if (missing.length === 0) return undefined;
    const wanted = [...new Set([...(auth?.scopes ?? []), ...missing])].join(' ');
    const status = auth ? 403 : 401;
    const error = auth ? 'insufficient_scope' : 'invalid_request';
    const description = `Tool '${toolName}' requires the scope(s): ${missing.join(' ')}.`;
    return {
      status,
      challenge: `Bearer error="${error}", error_description="${description.replace(/"/g, "'")}", scope="${wanted}", resource_metadata="${metadata!.url}"`,
      body: { error, error_description: description },
    };
  }

  async function handle(req: Request, res: ServerResponse, next?: Next): Promise<void> {
    const started = log ? performance.now() : 0;
    const path = pathOf(req.url);
    const entry: Partial<RequestLogEntry> = {};
    if (log) {
      res.once('close', () => log({ method: req.method ?? '', path, status: res.statusCode, ms: Math.round((performance.now() - started) * 100) / 100, ...entry }));
    }
    try {
      if (hostCount(req) > 1) return sendRpcError(res, 400, -32000, 'Bad Request: the request has more than one Host header (RFC 9112 §3.2). Send exactly one.', { Connection: 'close' });
      if (cors && cors(req, res)) return;
      const isMcp = path === mcpPath;
      if (isMcp || (legacy && legacy.handles(path))) {
        // While draining, POSTs still come in (refused once read unless they carry the client's answers to the server's own requests).
        if (closing && req.method !== 'POST') return refuseClosing(res);
        // Refusals name the header, not its value: the client knows what it sent, and the answer stays small and free of its text.
        if (!hostAllowed(req)) {
          return sendRpcError(res, 403, -32000, 'Forbidden: the Host header names a host this server does not answer to. Reach it by a loopback name, or list the name in allowedHosts.');
        }
        if (!originAllowed(req.headers.origin)) {
          return sendRpcError(res, 403, -32000, 'Forbidden: the Origin header names a web origin that is not allowed. List it in allowedOrigins to let that page call this server.');
        }
        if (isMcp) return await handleMcp(req, res, entry);
        return await legacy!.handle(req, res, { limit: maxBody, timeoutMs: bodyTimeoutMs, closing }, authenticate, entry);
      }
      if (req.method === 'GET' && metadata && metadata.paths.includes(path)) {
        return sendJson(res, 200, metadata.document, { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'max-age=3600' });
      }
      if (health && req.method === 'GET' && (path === '/healthz' || path === '/readyz')) {
        if (path === '/readyz' && closing) return sendJson(res, 503, { status: 'shutting down' });
        // No session count here: anyone can read these; the process reads it from `handler.sessionCount`.
        return sendJson(res, 200, { status: 'ok' });
      }
      if (next) return next();
      sendJson(res, 404, { error: 'not_found', error_description: `Nothing is served at ${path}. The MCP endpoint is ${mcpPath}.` });
    } catch (error) {
      entry.error = (error as Error)?.message;
      process.stderr.write(`toolwright http: request failed: ${(error as Error)?.stack ?? String(error)}\n`);
      if (!res.headersSent) sendRpcError(res, 500, -32603, 'Internal error: the server failed to handle this request. Its log has the details.');
      else res.end();
    }
  }

  const handler = handle as HttpHandler;
  Object.defineProperties(handler, {
    sessionCount: { get: () => store.size },
    closing: { get: () => closing },
    close: {
      value: async ({ drainTimeoutMs = 10_000 }: { drainTimeoutMs?: number } = {}) => {
        closing = true;
        const started = Date.now();
        await posts.drain(drainTimeoutMs);
        await legacy?.idle(Math.max(0, drainTimeoutMs - (Date.now() - started)));
        // Calls still running get an error response rather than a cut stream; give those answers a moment to leave.
        const reason = `Server shutting down: the call did not finish within the drain timeout (${drainTimeoutMs} ms) and was abandoned.`;
        await legacy?.abandon(reason);
        if (posts.count > 0) {
          const transports = [...[...store.values()].map((s) => s.transport), ...statelessTransports];
          await Promise.all(transports.map((t) => t.abandon?.(reason)));
          modern?.abandon(reason);
          await posts.drain(ABANDON_GRACE_MS);
        }
        if (keepOpenAlive) clearInterval(keepOpenAlive);
        stopPublishing?.();
        stopEnding?.();
        void stopRelay?.then((stop) => stop(), () => {});
        await Promise.all([store.closeAll('server shutting down'), legacy?.closeAll(), modern?.close()]);
      },
    },
  });
  return handler;
}

/** A stateless server made on demand has no `onerror` either: what the SDK would report there goes nowhere. */
function ignoreError(): void {}

function pathOf(url: string | undefined): string {
  if (!url) return '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** `application/json`, optionally with parameters; never a substring match (`application/jsonx`). */
function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const semi = value.indexOf(';');
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase() === 'application/json';
}

/** The first message of a body that the SDK would not accept, as the error that answers it. */
function invalidMessageOf(body: unknown): InvalidMessageError | undefined {
  if (!Array.isArray(body)) return jsonRpcKind(body) === undefined ? invalidMessageError(body) : undefined;
  for (const message of body) if (jsonRpcKind(message) === undefined) return invalidMessageError(message);
  return undefined;
}

/** How many Host headers came (node keeps only the first in `req.headers`). */
function hostCount(req: IncomingMessage): number {
  let count = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') count++;
  return count;
}

/** A 2026-07-28 retry that carries the client's input responses: the client answering the server's input requests. */
function isRoundAnswer(body: unknown): boolean {
  const params = (body as { params?: unknown } | null)?.params;
  return isModernMessage(body) && typeof params === 'object' && params !== null && typeof (params as { inputResponses?: unknown }).inputResponses === 'object';
}

/** True if the body holds a request (not only responses and notifications). */
function hasRequest(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => jsonRpcKind(m) === 'request') : jsonRpcKind(body) === 'request';
}

