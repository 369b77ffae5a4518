import { Pending } from '../ground/Pending';
import { ConfigError } from '@toolwright/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@toolwright/core';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../sdk/sdk';
import { isModernHttpRequest } from '../serving/createModernHttp';
import type { ServerFactory } from '../serving/ServerFactory';
import { createAuthenticator } from '../auth/authenticateRequest';
import { protectedResourceMetadata } from '../auth/protectedResourceMetadata';
import { createCors } from './cors';
import { createHostPolicy } from './hostPolicy';
import type { EventStoreFactory } from './EventStore';
import type { HttpHandlerOptions } from './HttpHandlerOptions';
import { EventBudget } from './EventBudget';
import { DEFAULT_EVENT_LIMITS, InMemoryEventStore } from './InMemoryEventStore';
import { InitializeRateLimit } from './InitializeRateLimit';
import type { SessionLimits } from './SessionStore';
import { acceptsMediaType } from './acceptsMediaType';
import { calledTool, firstMessage, hasRequest, invalidMessageOf, isRoundAnswer } from './jsonRpcShape';
import { createLegacySse } from './createLegacySse';
import { createModernHandler } from './createModernHandler';
import { createStatefulHandler } from './createStatefulHandler';
import { createStatelessHandler } from './createStatelessHandler';
import { createOriginPolicy } from './originPolicy';
import { listenToChanges } from './listenToChanges';
import { readJsonBody } from './readJsonBody';
import { createRequestLogger, requestLogLevelOf, type RequestLogEntry } from './requestLog';
import { refuseClosing, sendJson, sendRpcError } from './respond';
import { scopeRefusal } from './scopeRefusal';
import { shareThroughCluster } from './shareThroughCluster';
import { singleInstance } from './singleInstance';

type Request = IncomingMessage & { auth?: AuthInfo; body?: unknown };
export type Next = (error?: unknown) => void;

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

const DEFAULTS = {
  path: '/mcp',
  maxBodyBytes: 4 * 1024 * 1024,
  bodyTimeoutMs: 30_000,
  idleTimeoutMs: 30 * 60_000,
  maxSessions: 1000,
  maxSessionsPerPrincipal: 100,
  maxBufferedBytes: 16 * 1024 * 1024,
};
/** How long shutdown waits for abandoned calls' error responses to be written. */
const ABANDON_GRACE_MS = 1_000;
const SUPPORTED = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);

/**
 * Serves an app's MCP endpoint over Streamable HTTP (spec 2025-11-25) through a transport
 * (`NodeStreamableTransport` by default, the SDK's with `httpTransport: 'sdk'`). Everything
 * the SDK leaves to the application happens here, before a request reaches it: Host/Origin
 * checks, CORS, body limits, bearer auth and RFC 9728 metadata, health endpoints and request
 * logs. Then the handler of its mode answers it: stateful sessions, stateless, 2026-07-28,
 * or the legacy HTTP+SSE transport.
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
  // A 2026-07-28 round state is accepted once across the cluster, not once per instance.
  if (cluster?.usedStates) app.shareUsedStates?.(cluster.usedStates);

  let closing = false;
  /** The POSTs being answered (their JSON or SSE response not yet over), for the drain. */
  const posts = new Pending<ServerResponse>();
  const trackPost = (res: ServerResponse): void => {
    posts.add(res);
    res.once('close', () => void posts.delete(res));
  };

  const legacy = options.legacySse ? createLegacySse(app, { mcpPath, maxBodyBytes: maxBody, bodyTimeoutMs, authenticate, isClosing: () => closing }) : undefined;
  const limits = sessionLimitsOf(options);
  const initializeRate = options.sessions?.initializeRate === false ? undefined : new InitializeRateLimit(options.sessions?.initializeRate);
  const stateful = stateless
    ? undefined
    : createStatefulHandler(
        app,
        {
          transportKind,
          jsonResponse,
          eventStores: eventStoresOf(options),
          sseRetryMs: options.sseRetryMs,
          maxBufferedBytes: options.maxBufferedBytes,
          limits,
          initializeRate,
          clientAddressOf: options.sessions?.clientAddressOf,
          trackPost,
        },
        cluster ? shareThroughCluster(app, cluster, limits) : singleInstance,
      );
  const era2025 = stateful ?? createStatelessHandler(app, { transportKind, jsonResponse, maxBufferedBytes: options.maxBufferedBytes, trackPost });
  const modern = createModernHandler(app, {
    jsonResponse,
    subscribe: (notifier) => listenToChanges(app, cluster, notifier),
    maxBufferedBytes: options.maxBufferedBytes ?? DEFAULTS.maxBufferedBytes,
    // What the SDK refused is answered on the wire; its reasons are for debugging.
    onerror: (error) => {
      if (requestLogLevel === 'debug')
        (options.logWrite ?? ((line) => process.stderr.write(line)))(`${JSON.stringify({ time: new Date().toISOString(), level: 'debug', msg: 'mcp', error: error.message })}\n`);
    },
    trackPost,
  });

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
      if (!outcome.ok) {
        entry.error = outcome.detail;
        return sendJson(res, outcome.status, outcome.body, { 'WWW-Authenticate': outcome.challenge });
      }
      auth = outcome.authInfo;
      req.auth = auth;
    }

    let body: unknown;
    if (method === 'POST') {
      const read = await readPost(req, res, auth, entry);
      if (!read) return;
      body = read.body;
    } else if (method === 'GET' && !acceptsMediaType(req.headers.accept, 'text/event-stream')) {
      return sendRpcError(res, 406, -32000, 'Not Acceptable: the Accept header of a GET must list text/event-stream.');
    }

    // Decided per request, as 2026-07-28 says: a request claiming that era is served without a session.
    if (method === 'POST' && isModernHttpRequest(req, body)) return modern.handle({ req, res, body, auth, entry });

    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !SUPPORTED.has(version)) {
      return sendRpcError(res, 400, -32000, `Bad Request: unsupported MCP-Protocol-Version '${version}'. Supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`);
    }
    return era2025.handle({ req, res, body, auth, entry });
  }

  /** A POST's body, once its headers, size, JSON, messages and the scopes of the tool it calls passed; undefined once refused. */
  async function readPost(req: Request, res: ServerResponse, auth: AuthInfo | undefined, entry: Partial<RequestLogEntry>): Promise<{ body: unknown } | undefined> {
    const accept = req.headers.accept;
    if (!acceptsMediaType(accept, 'application/json') || !acceptsMediaType(accept, 'text/event-stream')) {
      return void sendRpcError(res, 406, -32000, 'Not Acceptable: the Accept header must list both application/json and text/event-stream.');
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      return void sendRpcError(res, 415, -32000, 'Unsupported Media Type: send the body with Content-Type: application/json.');
    }
    const read = await readJsonBody(req, maxBody, bodyTimeoutMs);
    if (!read.ok) {
      if (read.status !== 400) res.setHeader('Connection', 'close');
      return void sendRpcError(res, read.status, read.code, read.message);
    }
    const body = read.value;
    const invalid = invalidMessageOf(body);
    if (invalid) return void sendJson(res, 400, invalid);
    // While draining, only the client's answers get in: responses to the server's requests, and 2026-07-28 retries carrying input responses.
    if (closing && hasRequest(body) && !isRoundAnswer(body)) return void refuseClosing(res);
    const first = firstMessage(body);
    if (first) {
      if (typeof first.method === 'string') entry.rpc = first.method;
      if (typeof first.id === 'string' || typeof first.id === 'number') entry.id = first.id;
    }
    // Scopes are checked here too, so a caller missing them gets HTTP 403 with the scopes to request.
    const tool = metadata ? calledTool(body) : undefined;
    if (tool !== undefined) {
      const refusal = scopeRefusal(app, metadata!.url, tool, auth);
      if (refusal) return void sendJson(res, refusal.status, refusal.body, { 'WWW-Authenticate': refusal.challenge });
    }
    return { body };
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
        return await legacy!.handle(req, res, entry);
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

  async function close({ drainTimeoutMs = 10_000 }: { drainTimeoutMs?: number } = {}): Promise<void> {
    closing = true;
    const started = Date.now();
    await posts.drain(drainTimeoutMs);
    await legacy?.idle(Math.max(0, drainTimeoutMs - (Date.now() - started)));
    // Calls still running get an error response rather than a cut stream; give those answers a moment to leave.
    const reason = `Server shutting down: the call did not finish within the drain timeout (${drainTimeoutMs} ms) and was abandoned.`;
    await legacy?.abandon(reason);
    if (posts.count > 0) {
      await era2025.abandon(reason);
      await modern.abandon(reason);
      await posts.drain(ABANDON_GRACE_MS);
    }
    await Promise.all([era2025.close(), legacy?.closeAll(), modern.close()]);
  }

  const handler = handle as HttpHandler;
  Object.defineProperties(handler, {
    sessionCount: { get: () => stateful?.sessionCount ?? 0 },
    closing: { get: () => closing },
    close: { value: close },
  });
  return handler;
}

/** The session limits, each checked: a limit that is not a positive number would refuse every session (or none). */
function sessionLimitsOf(options: HttpHandlerOptions): SessionLimits {
  const limits = {
    idleTimeoutMs: options.sessions?.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
    maxSessions: options.sessions?.maxSessions ?? DEFAULTS.maxSessions,
    maxSessionsPerPrincipal: options.sessions?.maxSessionsPerPrincipal ?? Math.min(DEFAULTS.maxSessionsPerPrincipal, options.sessions?.maxSessions ?? DEFAULTS.maxSessions),
  };
  for (const [name, value] of Object.entries(limits)) {
    if (!(value > 0)) throw new ConfigError(`Toolwright: sessions.${name} must be a positive number of ${name === 'idleTimeoutMs' ? 'milliseconds' : 'sessions'}, not ${String(value)}.`);
  }
  return limits;
}

/** The event stores of stateful sessions, for resumable SSE streams (none for JSON responses); the default ones share one byte budget. */
function eventStoresOf(options: HttpHandlerOptions): EventStoreFactory | undefined {
  if (options.eventStore === false || options.jsonResponse === true) return undefined;
  const given = options.eventStore ?? options.cluster?.eventStore;
  if (given) return given;
  const limits = options.eventStoreLimits ?? {};
  const budget = new EventBudget(limits.maxBytesTotal ?? DEFAULT_EVENT_LIMITS.maxBytesTotal);
  const store = { maxEvents: limits.maxEventsPerSession, maxBytes: limits.maxBytesPerSession, budget };
  return () => new InMemoryEventStore(store);
}

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

/** How many Host headers came (node keeps only the first in `req.headers`). */
function hostCount(req: IncomingMessage): number {
  let count = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') count++;
  return count;
}
