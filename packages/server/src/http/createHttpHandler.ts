import { Pending } from '../ground/Pending';
import { ConfigError } from '@toolwright/core';
import { failureLogger } from '../ground/failureLogger';
import { cutText, joinedHeader, jsonLogLine } from '@toolwright/core/internal';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@toolwright/core';
import type { ServerFactory } from '../serving/ServerFactory';
import { isLoopbackAddress } from './hostPolicy';
import type { EventStoreFactory } from './EventStore';
import type { HttpHandlerOptions } from './HttpHandlerOptions';
import { EventBudget } from './EventBudget';
import { DEFAULT_EVENT_LIMITS, InMemoryEventStore } from './InMemoryEventStore';
import { wholeNumberOption } from './wholeNumberOption';
import { wasLogged } from '../serving/loggedErrors';
import { drainWindow } from '../serving/drainWindow';
import { firstMessage } from './jsonRpcShape';
import { hostAuthOf } from './hostAuthOf';
import { createLegacySse } from './createLegacySse';
import { createModernHandler } from './createModernHandler';
import { createStatefulHandler } from './createStatefulHandler';
import { createStatelessHandler } from './createStatelessHandler';
import { authRefusal } from './authRefusal';
import { endpointSettingsOf } from './endpointSettingsOf';
import { listenToChanges } from './listenToChanges';
import { readJsonBody } from './readJsonBody';
import { createRequestLogger, requestLogLevelOf, type RequestLogEntry } from './requestLog';
import { refuseClosing, sendAnswer, sendRpcError } from './respond';
import { uriTooLong } from './HttpRefusal';
import { UnusedConnections } from './UnusedConnections';
import { Http2SessionsOfServers } from './Http2SessionsOfServers';
import { toOriginForm } from './toOriginForm';
import { authorityAsHost } from './authorityAsHost';
import { userInfoRefusal } from './userInfoRefusal';
import { withoutConnectionFields } from './withoutConnectionFields';
import { checkHttpHandlerOptions } from './checkHttpHandlerOptions';

type Request = IncomingMessage & { auth?: AuthInfo; body?: unknown };
export type Next = (error?: unknown) => void;

/** A request handler for node:http, express (`app.use(handler)`) and hono (`c.env.incoming/outgoing`). */
export interface HttpHandler {
  (req: IncomingMessage, res: ServerResponse, next?: Next): Promise<void>;
  /** The endpoint's path as requests are matched against it: `path` as a URL spells it (`/outils%20m%C3%A9tier` for `/outils métier`). */
  readonly path: string;
  /** Live stateful sessions. */
  readonly sessionCount: number;
  /** True once `close()` started: new requests get 503 and `/readyz` reports not ready. */
  readonly closing: boolean;
  /**
   * Graceful stop: refuses new requests, waits up to `drainTimeoutMs` (default 10000) for
   * requests already being answered, then closes every session (ending their SSE streams).
   * Close the server after it: a connection that never carried a request then closes as soon as
   * the server stops listening, and each HTTP/2 connection the handler saw (it carried a request
   * to the handler, or the server accepted it after the handler's first HTTP/2 request) is sent
   * GOAWAY within 500 ms of the server no longer listening, and closes when its last stream ends.
   * `close()` itself sends no GOAWAY: a host that keeps its server listening keeps its HTTP/2
   * connections for its other routes. Only an endpoint request refused while closing with an
   * answer that would end an HTTP/1 connection (the 503) has its HTTP/2 connection sent GOAWAY at once.
   */
  close(options?: { drainTimeoutMs?: number }): Promise<void>;
}

/** How long shutdown waits for abandoned calls' error responses to be written. */
const ABANDON_GRACE_MS = 1_000;

/**
 * Serves an app's MCP endpoint over Streamable HTTP (spec 2025-11-25) through a transport
 * (`NodeStreamableTransport` by default, the SDK's with `httpTransport: 'sdk'`). Everything
 * the SDK leaves to the application happens here, before a request reaches it: Host/Origin
 * checks, CORS, body limits, bearer auth and RFC 9728 metadata, health endpoints and request
 * logs. Then the handler of its mode answers it: stateful sessions, stateless, 2026-07-28,
 * or the legacy HTTP+SSE transport.
 */
export function createHttpHandler(app: ServerFactory, options: HttpHandlerOptions = {}): HttpHandler {
  checkHttpHandlerOptions(options);
  const transportKind = options.httpTransport ?? 'toolwright';
  const cluster = options.cluster;
  if (cluster && transportKind === 'sdk') {
    throw new ConfigError("Toolwright: `cluster` needs the toolwright HTTP transport (the SDK's cannot take over a session opened elsewhere). Remove httpTransport: 'sdk'.");
  }
  // A request that fails inside the handler: one line with the stack's frames, a few per 10 s, in the app's logger or on stderr.
  const failures = failureLogger(app.logger, 'http');
  const {
    mcpPath,
    stateless,
    jsonResponse,
    maxBodyBytes: maxBody,
    maxBufferedBytes,
    maxUrlLength,
    bodyTimeoutMs,
    health,
    rules,
    authenticate,
    cors,
    limits,
    initializeRate,
    sharing,
  } = endpointSettingsOf(app, options, app.logger ? (message) => failures.error(message) : (message) => void process.stderr.write(`${message}\n`));
  const oauthPaths = app.oauth && new Set(app.oauth.paths);
  const requestLogLevel = requestLogLevelOf(options);
  const log = createRequestLogger(requestLogLevel, options.logWrite);

  let closing = false;
  /** The POSTs being answered (their JSON or SSE response not yet over), for the drain. */
  const posts = new Pending<ServerResponse>();
  const trackPost = (res: ServerResponse): void => {
    posts.add(res);
    res.once('close', () => void posts.delete(res));
  };
  /** The connections of the servers the endpoint is served from: those that never carry a request close with their server. */
  const connections = new UnusedConnections();
  /** Their HTTP/2 sessions: each gets GOAWAY once the endpoint closed and its server stopped listening. */
  const h2Sessions = new Http2SessionsOfServers();

  const legacy = options.legacySse
    ? createLegacySse(app, {
        mcpPath,
        maxBodyBytes: maxBody,
        maxBufferedBytes,
        bodyTimeoutMs,
        authenticate,
        isClosing: () => closing,
        limits,
        initializeRate,
        clientAddressOf: options.sessions?.clientAddressOf,
        failures,
      })
    : undefined;
  const stateful = stateless
    ? undefined
    : createStatefulHandler(
        app,
        {
          transportKind,
          jsonResponse,
          eventStores: eventStoresOf(options),
          sseRetryMs: options.sseRetryMs,
          maxBufferedBytes,
          limits,
          initializeRate,
          clientAddressOf: options.sessions?.clientAddressOf,
          trackPost,
        },
        sharing,
      );
  const era2025 = stateful ?? createStatelessHandler(app, { transportKind, jsonResponse, maxBufferedBytes, trackPost });
  const modern = createModernHandler(app, {
    jsonResponse,
    warn: (message) => failures.warn(message),
    subscribe: (notifier) => listenToChanges(app, cluster, notifier),
    maxBufferedBytes,
    maxRequestBytes: maxBody,
    // What the SDK refused is answered on the wire; its reasons are for debugging.
    onerror: (error) => {
      if (requestLogLevel === 'debug')
        (options.logWrite ?? ((line) => process.stderr.write(line)))(`${jsonLogLine({ time: new Date().toISOString(), level: 'debug', msg: 'mcp', error: cutText(String(error.message), 1_000) })}\n`);
    },
    trackPost,
  });

  async function handleMcp(req: Request, res: ServerResponse, entry: Partial<RequestLogEntry>): Promise<void> {
    const method = req.method ?? 'GET';
    const refused = rules.method(method);
    if (refused) return sendAnswer(res, refused);

    // Without `auth`, the caller the host framework established (`req.auth`, the SDK's convention; see the dispatch) is the request's, in either era.
    let auth: AuthInfo | undefined = authenticate ? undefined : req.auth;
    if (authenticate) {
      const outcome = await authenticate(req);
      if (!outcome.ok) {
        entry.error = outcome.detail;
        return sendAnswer(res, authRefusal(outcome));
      }
      auth = outcome.authInfo;
      req.auth = auth;
    }

    let body: unknown;
    if (method === 'POST') {
      const read = await readPost(req, res, auth, entry);
      if (!read) return;
      body = read.body;
    } else if (method === 'GET') {
      const refusal = rules.getHeaders(req.headers.accept);
      if (refusal) return sendAnswer(res, refusal);
    }

    const version = headerOf(req.headers['mcp-protocol-version']);
    // Decided per request, as 2026-07-28 says: a request claiming that era is served without a session.
    if (method === 'POST' && rules.isModern(version, body)) return modern.handle({ req, res, body, auth, entry });
    const unsupported = rules.version(version);
    if (unsupported) return sendAnswer(res, unsupported);
    return era2025.handle({ req, res, body, auth, entry });
  }

  /** A POST's body, once its headers, size, JSON, messages and the scopes of the tool it calls passed; undefined once refused. */
  async function readPost(req: Request, res: ServerResponse, auth: AuthInfo | undefined, entry: Partial<RequestLogEntry>): Promise<{ body: unknown } | undefined> {
    // Content-Type as the fetch handler reads it: two of them are refused alike, not the first one taken.
    const contentType = joinedHeader(req, 'content-type');
    const refusedHeaders = rules.postHeaders(req.headers.accept, contentType);
    if (refusedHeaders) return void sendAnswer(res, refusedHeaders);
    const read = await readJsonBody(req, contentType, maxBody, bodyTimeoutMs);
    if (!read.ok) {
      if (read.log) failures.error(read.log);
      // Over HTTP/1 the unread rest of the body would be read as the next request (HTTP/2 leaves the field out: its stream ends alone).
      if (read.status !== 400) res.setHeader('Connection', 'close');
      return void sendRpcError(res, read.status, read.code, read.message, read.headers);
    }
    const body = read.value;
    const refusedBody = rules.body(body, auth, closing);
    if (refusedBody) {
      // A malformed answer to one of the server's questions is refused, and ends that question now.
      await stateful?.failQuestions({ req, body, auth }).catch((error: unknown) => failures.error('a malformed answer did not reach its session', error));
      return void sendAnswer(res, refusedBody);
    }
    const first = firstMessage(body);
    if (first) {
      if (typeof first.method === 'string') entry.rpc = first.method;
      if (typeof first.id === 'string' || typeof first.id === 'number') entry.id = first.id;
    }
    return { body };
  }

  async function handle(req: Request, res: ServerResponse, next?: Next): Promise<void> {
    const started = log ? performance.now() : 0;
    connections.watch(req);
    // HTTP/2 forbids connection-specific fields, whoever sets them; a `Connection: close` while draining becomes a GOAWAY.
    if (req.httpVersionMajor === 2) {
      h2Sessions.watch(req);
      withoutConnectionFields(res, () => {
        if (closing) goAway(req);
      });
    }
    // An absolute-form target (`http://host/mcp`, RFC 9112 §3.2.2) is read as its origin form and host.
    if (req.url !== undefined && req.url.charCodeAt(0) !== 0x2f /* / */) toOriginForm(req);
    const path = pathOf(req.url);
    const entry: Partial<RequestLogEntry> = {};
    if (log) {
      res.once('close', () => {
        const ms = Math.round((performance.now() - started) * 100) / 100;
        // Closed with no answer sent, mostly a client that hung up (node's statusCode would still read 200): 499, as proxies log it.
        if (!res.headersSent) return log({ method: req.method ?? '', path, ms, ...entry, status: CLIENT_CLOSED, error: entry.error ?? CLIENT_CLOSED_ERROR });
        log({ method: req.method ?? '', path, status: res.statusCode, ms, ...entry });
      });
    }
    const isMcp = path === mcpPath;
    // Mounted in a framework (`next`), the app's own routes are the framework's to check: their Host and their URL's length.
    const ours = !next || isMcp || oauthPaths?.has(path) || legacy?.handles(path);
    try {
      if (ours && hostCount(req) > 1) return sendRpcError(res, 400, -32000, 'Bad Request: the request has more than one Host header (RFC 9112 §3.2). Send exactly one.', { Connection: 'close' });
      // HTTP/2 names the host in `:authority` only: read as the Host from here on (the URL's length, the Host rule, the URL of the request, the routes after this one).
      if (!authorityAsHost(req) && ours)
        return sendRpcError(res, 400, -32000, 'Bad Request: the Host header names another host than :authority (RFC 9113 §8.3.1). Send the same host in both, or leave Host out.');
      const userInfo = ours ? userInfoRefusal(req.headers.host) : undefined;
      if (userInfo) return sendAnswer(res, userInfo);
      if (ours && urlLength(req) > maxUrlLength) return sendAnswer(res, uriTooLong(maxUrlLength));
      const corsAnswer = cors?.(req.headers.origin, req.method, req.headers['access-control-request-headers']);
      if (corsAnswer) {
        for (const [name, value] of Object.entries(corsAnswer.headers)) res.setHeader(name, value);
        if (corsAnswer.preflight) return void res.writeHead(204).end();
      }
      if (oauthPaths?.has(path)) return await app.oauth!.handleNode(req, res);
      if (isMcp || (legacy && legacy.handles(path))) {
        // While draining, POSTs still come in (refused once read unless they carry the client's answers to the server's own requests).
        if (closing && req.method !== 'POST') return refuseClosing(res);
        const refused = rules.host(req.headers.host, isLoopbackAddress(req.socket.localAddress)) ?? rules.origin(req.headers.origin);
        if (refused) return sendAnswer(res, refused);
        // A host's `req.auth` counts only as an AuthInfo (every transport and the session binding read it there).
        if (!authenticate) req.auth = hostAuthOf(req.auth);
        if (isMcp) return await handleMcp(req, res, entry);
        return await legacy!.handle(req, res, entry);
      }
      const answer = rules.other(req.method ?? 'GET', path, closing, health);
      if (answer) return sendAnswer(res, answer);
      if (next) return next();
      sendAnswer(res, rules.notFound(path));
    } catch (error) {
      entry.error = (error as Error)?.message;
      // A refused server (see `refuseServing`) was logged where it was refused.
      if (!wasLogged(error)) failures.error('request failed', error);
      if (!res.headersSent) sendRpcError(res, 500, -32603, 'Internal error: the server failed to handle this request. Its log has the details.');
      else res.end();
    }
  }

  async function close(options?: { drainTimeoutMs?: number }): Promise<void> {
    const drain = drainWindow('createHttpHandler(...).close({ drainTimeoutMs })', options?.drainTimeoutMs);
    closing = true;
    await posts.drain(drain.ms);
    await legacy?.idle(drain.left());
    // Calls still running get an error response rather than a cut stream; give those answers a moment to leave.
    const reason = `Server shutting down: the call did not finish within the drain timeout (${drain.ms} ms) and was abandoned.`;
    await legacy?.abandon(reason);
    if (posts.count > 0) {
      await era2025.abandon(reason);
      await modern.abandon(reason);
      await posts.drain(ABANDON_GRACE_MS);
    }
    await Promise.all([era2025.close(), legacy?.closeAll(), modern.close()]);
    // The host closes its server next; a connection a client opened and never used would hold it open.
    connections.closeWithServers();
    // So would an HTTP/2 session on Node 20 and 22: GOAWAY once its server stops listening (a host that keeps serving keeps its sessions).
    h2Sessions.closeWithServers();
    log?.flush();
    failures.flush();
  }

  const handler = handle as HttpHandler;
  Object.defineProperties(handler, {
    path: { value: mcpPath },
    sessionCount: { get: () => stateful?.sessionCount ?? 0 },
    closing: { get: () => closing },
    close: { value: close },
  });
  return handler;
}

/** The event stores of stateful sessions, for resumable SSE streams (none for JSON responses); the default ones share one byte budget. */
function eventStoresOf(options: HttpHandlerOptions): EventStoreFactory | undefined {
  if (options.eventStore === false || options.jsonResponse === true) return undefined;
  const given = options.eventStore ?? options.cluster?.eventStore;
  if (given) return given;
  const limits = options.eventStoreLimits ?? {};
  const budget = new EventBudget(wholeNumberOption('eventStoreLimits.maxBytesTotal', limits.maxBytesTotal, { unit: 'bytes', min: 1, byDefault: DEFAULT_EVENT_LIMITS.maxBytesTotal }));
  const maxEvents = wholeNumberOption('eventStoreLimits.maxEventsPerSession', limits.maxEventsPerSession, { unit: 'events', min: 1, byDefault: DEFAULT_EVENT_LIMITS.maxEvents });
  const maxBytes = wholeNumberOption('eventStoreLimits.maxBytesPerSession', limits.maxBytesPerSession, { unit: 'bytes', min: 1, byDefault: DEFAULT_EVENT_LIMITS.maxBytes });
  const store = { maxEvents, maxBytes, budget };
  return () => new InMemoryEventStore(store);
}

/** The request log's status of a request whose client closed the connection before any answer went out. */
const CLIENT_CLOSED = 499;
const CLIENT_CLOSED_ERROR = 'the connection closed before any answer was sent (the client hung up, or a timeout ended it)';

function pathOf(url: string | undefined): string {
  if (!url) return '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The length of the URL a request was sent to, as a fetch handler's `request.url` has it: `http://host/path?query`. */
function urlLength(req: IncomingMessage): number {
  return ((req.socket as { encrypted?: boolean }).encrypted ? 8 : 7) + (req.headers.host?.length ?? 0) + (req.url?.length ?? 0);
}

/** Sends GOAWAY on the HTTP/2 connection of `req`: its client opens no new stream on it, and the streams it has finish. */
function goAway(req: IncomingMessage): void {
  (req as { stream?: { session?: { close(): void } } }).stream?.session?.close();
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** How many Host headers came (node keeps only the first in `req.headers`). */
function hostCount(req: IncomingMessage): number {
  let count = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') count++;
  return count;
}
