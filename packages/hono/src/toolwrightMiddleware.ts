import type { Context, MiddlewareHandler, Next } from 'hono';
import { getPath } from 'hono/utils/url';
import type { App } from '@toolwright/server';
import { checkFetchHandlerOptions, createFetchHandler } from '@toolwright/server/fetch';
import { createAppStarter, drainWindow } from '@toolwright/server/fetch';
import { runtimeClientAddress } from './runtimeClientAddress';
import type { ToolwrightHonoOptions } from './ToolwrightHonoOptions';

const DRAIN_OPTION = 'toolwrightMiddleware(app, { drainTimeoutMs })';

/** A Hono middleware serving an app's MCP endpoint, with its lifecycle. */
export interface ToolwrightHonoMiddleware extends MiddlewareHandler {
  /** Settles once the app's start hooks ran (requests wait for it); rejects with a `StartupError` when one failed (a later request on the endpoint starts the app again). */
  readonly ready: Promise<void>;
  /** Live 2025-11-25 sessions. */
  readonly sessionCount: number;
  /**
   * Graceful stop: new MCP requests get 503, running calls get `drainTimeoutMs` to finish,
   * sessions and their SSE streams end, then the app's shutdown hooks run (once its work still
   * in flight, such as a task's run, settled or the rest of `drainTimeoutMs` passed). Call it before
   * closing the server, which waits for those streams.
   */
  close(): Promise<void>;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';
const HEALTH = new Set(['/healthz', '/readyz']);

/**
 * Mounts a Toolwright app in a Hono app: `web.use(toolwrightMiddleware(mcpApp))`, or
 * `web.all('/mcp', mcp)` behind your own middleware (`web.use('/mcp', bearerAuth(...))`). It
 * sits on `createFetchHandler`: both protocol eras, sessions or stateless, Host/Origin checks,
 * body and URL limits, bearer auth with RFC 9728 metadata, per-member scopes, on every runtime
 * Hono runs on. Requests to other paths go on to the app's own routes.
 */
export function toolwrightMiddleware(app: App, options: ToolwrightHonoOptions = {}): ToolwrightHonoMiddleware {
  checkFetchHandlerOptions(options, { call: 'toolwrightMiddleware (@toolwright/hono)', own: ['drainTimeoutMs', 'clientAddress'], docsPage: 'Hono' });
  const { drainTimeoutMs, clientAddress = runtimeClientAddress, ...fetchOptions } = options;
  // Checked when mounted: a wrong drain time fails here, not at the close.
  const drainMs = drainWindow(DRAIN_OPTION, drainTimeoutMs).ms;
  // Without logError, where the app logs (`createApp({ logger })`), else the console; a logger that throws fails no request.
  const logger = app.logger;
  const logError =
    options.logError ??
    (logger
      ? (message: string) => {
          try {
            logger.error(message);
          } catch {
            // The app's logger failed: the request is answered all the same.
          }
        }
      : (message: string) => console.error(message));
  const health = options.health === true;
  // The fetch handler knows a request, not Hono's context: the address is found through it.
  const contexts = new WeakMap<Request, Context>();
  const handler = createFetchHandler(app, {
    ...fetchOptions,
    path: options.path ?? '/mcp',
    health,
    sessions: {
      ...fetchOptions.sessions,
      clientAddressOf: (request) => {
        const c = contexts.get(request);
        return fetchOptions.sessions?.clientAddressOf?.(request) ?? (c ? clientAddress(c) : undefined);
      },
    },
  });
  // The handler's path as Hono's c.req.path spells it for a request there: `mcp` is `/mcp`, `/outils%20m%C3%A9tier` is `/outils métier`.
  const mcpPath = getPath(new Request(`http://endpoint.invalid${handler.path}`));
  const oauthPaths = app.oauth && new Set(app.oauth.paths);
  // The endpoint holds the app before each start; a failed start lets go, answers 503 and is tried again on the endpoint's next request.
  const starter = createAppStarter(app, (error) =>
    logError(`toolwright hono: the MCP server did not start: ${(error as Error)?.message ?? String(error)} (the endpoint answers 503; its next request starts the app again)`),
  );
  const ready = starter.start().then(() => undefined);
  // A failed start hook is reported by `ready` (and each request's 503); it is not an unhandled rejection.
  ready.catch(() => undefined);

  const middleware = async (c: Context, next: Next): Promise<Response | void> => {
    const path = c.req.path;
    const mine =
      path === mcpPath || oauthPaths?.has(path) === true || (c.req.method === 'GET' && (((options.auth ?? app.oauth) !== undefined && path.startsWith(WELL_KNOWN)) || (health && HEALTH.has(path))));
    if (!mine) return next();
    // A request on the endpoint waits for the start, or starts the app again after a failed one.
    if (path === mcpPath && (await starter.start().catch(() => undefined)) === undefined) return notStarted();
    const request = await requestOf(c, path);
    if (!request) {
      logError(
        `toolwright hono: the body of ${c.req.method} ${path} was read from c.req.raw before this middleware, so the endpoint cannot read it. ` +
          'Read it through Hono (await c.req.json(), which keeps it) or from c.req.raw.clone() in the middleware before, or mount the endpoint before that middleware.',
      );
      return bodyGone();
    }
    contexts.set(request, c);
    const response = await handler(request);
    // Metadata for another resource, or health turned off: not this endpoint's to answer.
    if (path !== mcpPath && response.status === 404) return next();
    return response;
  };

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      const drain = drainWindow(DRAIN_OPTION, drainMs);
      await handler.close({ drainTimeoutMs: drain.ms });
      // The app's work in flight outside the requests (a task's run) gets what is left of the same drain time.
      await starter.release(drain.left());
    })());

  return Object.defineProperties(middleware as ToolwrightHonoMiddleware, {
    ready: { value: ready },
    sessionCount: { get: () => handler.sessionCount },
    close: { value: close },
  });
}

/**
 * The request to hand on, at the path Hono matched: Hono's own, or, when a middleware before
 * this one read its body (`await c.req.json()`), a copy carrying the body Hono kept. Hono matches
 * the decoded path (`/%6Dcp` is `/mcp`, and `/mcp/` too with `strict: false`), the fetch handler
 * the URL as sent: a URL spelled otherwise is copied with the path Hono matched. Undefined when
 * the body was read from `c.req.raw` itself: Hono kept nothing, and it is gone.
 */
async function requestOf(c: Context, path: string): Promise<Request | undefined> {
  const raw = c.req.raw;
  const url = new URL(raw.url);
  const respelled = url.pathname !== path;
  if (respelled) url.pathname = path;
  if (!raw.bodyUsed) return respelled ? new Request(url, raw) : raw;
  const body = await c.req.arrayBuffer().catch(() => undefined);
  return body && new Request(url, { method: raw.method, headers: raw.headers, body, signal: raw.signal });
}

function bodyGone(): Response {
  const body = { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error: the request body was read before the MCP endpoint got it. The server log has the details.' }, id: null };
  return new Response(JSON.stringify(body), { status: 500, headers: { 'Content-Type': 'application/json' } });
}

function notStarted(): Response {
  const body = { jsonrpc: '2.0', error: { code: -32000, message: 'Service unavailable: the MCP server did not start (a start hook failed). Its log has the details.' }, id: null };
  return new Response(JSON.stringify(body), { status: 503, headers: { 'Content-Type': 'application/json' } });
}
