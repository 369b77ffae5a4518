import type { AuthInfo, ToolLogger } from '@toolwright/core';
import { PendingCount } from '../ground/PendingCount';
import { createModernFetch } from '../serving/createModernFetch';
import type { ServerFactory } from '../serving/ServerFactory';
import { drainWindow } from '../serving/drainWindow';
import { authRefusal } from '../http/authRefusal';
import { endpointSettingsOf } from '../http/endpointSettingsOf';
import { CLOSING_REFUSAL, rpcRefusal, uriTooLong } from '../http/HttpRefusal';
import { firstMessage } from '../http/jsonRpcShape';
import { listenToChanges } from '../http/listenToChanges';
import { userInfoRefusal } from '../http/userInfoRefusal';
import { checkFetchHandlerOptions } from './checkFetchHandlerOptions';
import { createFetchSessions } from './createFetchSessions';
import { createFetchStateless } from './createFetchStateless';
import { defaultLogError, type DefaultLogError } from './defaultLogError';
import type { FetchHandlerOptions } from './FetchHandlerOptions';
import { jsonAnswer } from './jsonAnswer';
import { pathOf } from './pathOf';
import { readRequestBody } from './readRequestBody';
import { whenBodyEnds } from './whenBodyEnds';
import { withHeaders } from './withHeaders';

/** A web-standard request handler: `Deno.serve(handler)`, `Bun.serve({ fetch: handler })`, `export default { fetch: handler }` on Workers. */
export interface FetchHandler {
  /** Answers one request; never rejects (a failure is a 500 whose details go to `logError`). */
  (request: Request): Promise<Response>;
  /** The endpoint's path as requests are matched against it: `path` as a URL spells it (`/outils%20m%C3%A9tier` for `/outils métier`). */
  readonly path: string;
  /** Live 2025-era sessions (0 when stateless). */
  readonly sessionCount: number;
  /** True once `close()` started: new requests get 503 and `/readyz` reports not ready. */
  readonly closing: boolean;
  /**
   * Graceful stop: refuses new requests (503), waits up to `drainTimeoutMs` (default 10000) for
   * the POSTs being answered, then closes every session and `subscriptions/listen` stream. A call
   * still running when the wait ends gets a -32000 error naming the drain timeout, and its run stops.
   * The default log (no `logError`) then writes its counts of lines left out, and stops its timer.
   */
  close(options?: { drainTimeoutMs?: number }): Promise<void>;
}

/**
 * Serves an app's MCP endpoint as a web-standard `(request: Request) => Promise<Response>`, for
 * any runtime with `fetch` (Deno, Bun, Cloudflare Workers, node through an adapter): the
 * 2026-07-28 era (stateless by design) and the 2025-11-25 era, stateless or with sessions, from
 * the same classes. The endpoint's rules are the node listener's own (`createRequestRules`):
 * Host and Origin, method, Accept and Content-Type, body and URL limits, bearer auth with RFC
 * 9728 metadata, per-member scopes, health endpoints; then the handler of the request's era
 * answers it.
 */
export function createFetchHandler(app: ServerFactory, options: FetchHandlerOptions = {}): FetchHandler {
  checkFetchHandlerOptions(options);
  // The default log holds back counts of lines left out until its window ends: `close()` writes them.
  let ownLog: DefaultLogError | undefined;
  const logError = options.logError ?? (ownLog = defaultLogError(app.logger));
  const settings = endpointSettingsOf(app, options, logError);
  const {
    mcpPath,
    stateless,
    jsonResponse,
    maxBodyBytes: maxBody,
    maxBufferedBytes: maxBuffered,
    maxUrlLength,
    bodyTimeoutMs,
    health,
    rules,
    authenticate,
    cors,
    limits,
    initializeRate,
    sharing,
  } = settings;
  const oauthPaths = app.oauth && new Set(app.oauth.paths);
  const cluster = options.cluster;
  const era2025 = stateless
    ? createFetchStateless(app, { jsonResponse })
    : createFetchSessions(
        app,
        {
          jsonResponse,
          eventStores: jsonResponse || options.eventStore === false ? undefined : (options.eventStore ?? cluster?.eventStore),
          sseRetryMs: options.sseRetryMs,
          limits,
          initializeRate,
          clientAddressOf: options.sessions?.clientAddressOf,
        },
        sharing,
      );
  const modern = createModernFetch((setup) => app.createServer(setup), {
    jsonResponse,
    maxRequestBytes: maxBody,
    subscribe: (notifier) => listenToChanges(app, cluster, notifier),
    onerror: () => {},
    warn: (message) => logWarning(app.logger, `toolwright fetch: ${message}`),
    tools: app,
  });
  let closing = false;
  /** The POSTs being answered (their JSON or SSE response not yet over), for the drain. */
  const posts = new PendingCount();

  async function handleMcp(request: Request, corsHeaders: Readonly<Record<string, string>> | undefined): Promise<Response> {
    const method = request.method;
    const headers = request.headers;
    const refused = rules.method(method);
    if (refused) return jsonAnswer(refused, corsHeaders);

    let auth: AuthInfo | undefined;
    if (authenticate) {
      const outcome = await authenticate({ headers: { authorization: headers.get('authorization') ?? undefined } });
      if (!outcome.ok) {
        if (outcome.detail) logError(`toolwright fetch: ${method} ${mcpPath} refused: ${outcome.detail}`);
        return jsonAnswer(authRefusal(outcome), corsHeaders);
      }
      auth = outcome.authInfo;
    }

    let body: unknown;
    if (method === 'POST') {
      const refusedHeaders = rules.postHeaders(headerOf(headers, 'accept'), headerOf(headers, 'content-type'));
      if (refusedHeaders) return jsonAnswer(refusedHeaders, corsHeaders);
      if (request.bodyUsed) {
        // Code before the handler read the body (a middleware, a route): the server's mistake, not the client's.
        logError(
          `toolwright fetch: the body of ${method} ${mcpPath} was read before the handler got the request. Hand it the request unread; to look at the body first, read a copy (await request.clone().json()).`,
        );
        return jsonAnswer(rpcRefusal(500, -32603, 'Internal error: the request body was read before the MCP endpoint got it. The server log has the details.'), corsHeaders);
      }
      const read = await readRequestBody(request, maxBody, bodyTimeoutMs);
      if (!read.ok) return jsonAnswer(rpcRefusal(read.status, read.code, read.message, read.headers), corsHeaders);
      body = read.value;
      const refusedBody = rules.body(body, auth, closing);
      if (refusedBody) {
        // A malformed answer to one of the server's questions is refused, and ends that question now.
        await era2025
          .failQuestions?.(request, body, auth)
          .catch((error: unknown) => logError(`toolwright fetch: a malformed answer did not reach its session: ${(error as Error)?.stack ?? String(error)}`));
        return jsonAnswer(refusedBody, corsHeaders);
      }
    } else {
      if (closing) return jsonAnswer(CLOSING_REFUSAL, corsHeaders);
      if (method === 'GET') {
        const refusedGet = rules.getHeaders(headerOf(headers, 'accept'));
        if (refusedGet) return jsonAnswer(refusedGet, corsHeaders);
      }
    }

    // The body is read: the modes take the parsed body, and the request as the runtime passed it (`clientAddressOf` may know it by identity).
    const version = headerOf(headers, 'mcp-protocol-version');
    const modernEra = method === 'POST' && rules.isModern(version, body);
    if (!modernEra) {
      const unsupported = rules.version(version);
      if (unsupported) return jsonAnswer(unsupported, corsHeaders);
    }
    // A POST counts until its answer is out; a subscriptions/listen stream lasts until the client or shutdown ends it: the drain does not wait for it.
    const post = method === 'POST' && firstMessage(body)?.method !== 'subscriptions/listen';
    if (post) posts.add();
    let response: Response;
    try {
      response = modernEra ? await modern.fetch(request, body, auth) : await era2025.handle(request, body, auth);
    } catch (error) {
      if (post) posts.done();
      throw error;
    }
    // whenBodyEnds calls back exactly once: when the client has read the body, or it is cancelled or fails; an
    // event stream the client leaves unread past maxBufferedBytes is dropped, not kept whole.
    return withHeaders(whenBodyEnds(response, post ? () => posts.done() : undefined, maxBuffered), corsHeaders);
  }

  async function handle(request: Request): Promise<Response> {
    const answer = await answerOf(request);
    // A HEAD answer has a GET's status and headers, and no body (RFC 9110 §9.3.2), whatever answers it: the endpoint's
    // refusal (405), the authorization server's, health and metadata. Node's listener leaves the body out by itself.
    if (request.method !== 'HEAD' || answer.body === null) return answer;
    answer.body.cancel().catch(() => undefined);
    return new Response(null, answer);
  }

  async function answerOf(request: Request): Promise<Response> {
    let corsHeaders: Readonly<Record<string, string>> | undefined;
    try {
      // Read once: a runtime's `request.url` serializes the URL on every read.
      const href = request.url;
      const hostHeader = headerOf(request.headers, 'host');
      // In the node listener's order: a Host with user information is malformed (400) whatever the URL's length (414).
      // It would pass the Host rule on the name before its first colon. (A URL's host never carries it.)
      const userInfo = userInfoRefusal(hostHeader);
      if (userInfo) return jsonAnswer(userInfo);
      if (href.length > maxUrlLength) return jsonAnswer(uriTooLong(maxUrlLength));
      const path = pathOf(href);
      const origin = headerOf(request.headers, 'origin');
      const corsAnswer = cors?.(origin, request.method, request.headers.get('access-control-request-headers'));
      if (corsAnswer?.preflight) return new Response(null, { status: 204, headers: corsAnswer.headers });
      corsHeaders = corsAnswer?.headers;
      if (oauthPaths?.has(path)) return (await app.oauth!.handle(request)) ?? jsonAnswer(rules.notFound(path), corsHeaders);
      if (path === mcpPath) {
        // A Request carries no local address: the Host rule is the loopback one unless allowedHosts names the hosts served.
        const refused = rules.host(hostHeader ?? new URL(href).host, true) ?? rules.origin(origin);
        if (refused) return jsonAnswer(refused, corsHeaders);
        return await handleMcp(request, corsHeaders);
      }
      return jsonAnswer(rules.other(request.method, path, closing, health) ?? rules.notFound(path), corsHeaders);
    } catch (error) {
      logError(`toolwright fetch: request failed: ${(error as Error)?.stack ?? String(error)}`);
      return jsonAnswer(rpcRefusal(500, -32603, 'Internal error: the server failed to handle this request. Its log has the details.'), corsHeaders);
    }
  }

  async function close(options?: { drainTimeoutMs?: number }): Promise<void> {
    const drainTimeoutMs = drainWindow('createFetchHandler(...).close({ drainTimeoutMs })', options?.drainTimeoutMs).ms;
    closing = true;
    if (!(await posts.drain(drainTimeoutMs))) {
      const reason = `Server shutting down: the call did not finish within the drain timeout (${drainTimeoutMs} ms) and was abandoned.`;
      // A 2026-07-28 call still running gets its -32000 answer before the SDK's handler closes (which would end it with an empty one).
      modern.abandon(reason);
      // A 2025-era one gets it through its transport, which is then closed: its run stops.
      await era2025.abandon(reason);
    }
    await Promise.all([era2025.close(), modern.close()]);
    // Last, after what closing logs: a closed handler writes no count 10 s later, and leaves no timer.
    ownLog?.flush();
  }

  const handler = handle as FetchHandler;
  Object.defineProperties(handler, {
    path: { value: mcpPath },
    sessionCount: { get: () => era2025.sessionCount },
    closing: { get: () => closing },
    close: { value: close },
  });
  return handler;
}

function headerOf(headers: Headers, name: string): string | undefined {
  return headers.get(name) ?? undefined;
}

/** A warning of the handler's own making (not a client's): the app's logger when it has one, else the console. */
function logWarning(logger: ToolLogger | undefined, line: string): void {
  try {
    if (logger) logger.warn(line);
    else console.warn(line);
  } catch {
    // The app's logger failed: nothing else is owed this line.
  }
}
