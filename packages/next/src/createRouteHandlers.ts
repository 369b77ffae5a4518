import type { App } from '@toolwright/server';
import { checkFetchHandlerOptions, createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { authorizationServerPaths } from './authorizationServerPaths';
import { createAppStarter, drainWindow, type AppStarter, type DrainWindow } from '@toolwright/server/fetch';
import type { RouteHandlersOptions } from './RouteHandlersOptions';

/** A Next.js route handler: takes the request (a `NextRequest` is one), answers a `Response`. */
export type RouteHandler = (request: Request) => Promise<Response>;

/**
 * The App Router route handlers of an MCP endpoint: `export const { GET, POST, DELETE, PUT,
 * PATCH, OPTIONS } = createRouteHandlers(app)` in `app/mcp/route.ts`. Next answers a method the
 * route does not export itself (a 405 without `Allow`, a 204 to OPTIONS), and HEAD with GET.
 */
export interface RouteHandlers {
  /** The server's SSE stream of a 2025-11-25 session; RFC 9728 metadata in a `.well-known` route. */
  readonly GET: RouteHandler;
  /** Every JSON-RPC message, both protocol eras. */
  readonly POST: RouteHandler;
  /** Ends a 2025-11-25 session. */
  readonly DELETE: RouteHandler;
  /** Not served: 405 with `Allow` and a JSON-RPC error, as the node listener and the fetch handler answer. */
  readonly PUT: RouteHandler;
  /** Not served: 405 with `Allow` and a JSON-RPC error, as `PUT`. */
  readonly PATCH: RouteHandler;
  /** CORS preflight with the `cors` option; without it, 405 with `Allow`, as `PUT`. */
  readonly OPTIONS: RouteHandler;
  /** Settles once the app is built and its start hooks ran; rejects when either failed (the requests waiting get 503; after a failed start, a later request starts the app again). */
  readonly ready: Promise<void>;
  /** Live 2025-11-25 sessions in this process. */
  readonly sessionCount: number;
  /** Graceful stop (for a SIGTERM handler): new requests get 503, running calls get `drainTimeoutMs` (default 10000) to finish, sessions end, then the app's shutdown hooks run (once its work still in flight, such as a task's run, settled or the rest of `drainTimeoutMs` passed). Resolves at once when the app was never built. */
  close(options?: { drainTimeoutMs?: number }): Promise<void>;
}

/**
 * Serves a Toolwright app from Next.js App Router route handlers, on `createFetchHandler`:
 * both protocol eras, 2025-11-25 sessions in the server process's memory (or `stateless: true`
 * where instances do not share memory, as on Vercel), Host/Origin checks, body and URL limits,
 * bearer auth with RFC 9728 metadata, per-member scopes. `app` may be the app, or the promise
 * `createApp` returns: the handlers wait for it, and run the app's start hooks once. An app built
 * with `createApp({ oauth })` has the same handlers answer its authorization server: export them
 * from the routes of its paths too (a catch-all under the issuer's path, and one under `.well-known`).
 */
export function createRouteHandlers(app: App | Promise<App>, options: RouteHandlersOptions = {}): RouteHandlers {
  checkFetchHandlerOptions(options, { call: 'createRouteHandlers (@toolwright/next)', docsPage: 'Next.js' });
  const routePath = options.path ?? '/mcp';
  let logError = options.logError ?? ((message: string) => console.error(message));
  const opened = Promise.resolve(app).then(async (built) => {
    // Given no logError, the handlers log where the app does (`createApp({ logger })`), once the app is known: the fetch
    // handler's lines bounded as its default is, these lines here as they come; a logger that throws fails no request.
    const logger = options.logError ? undefined : built.logger;
    if (logger) {
      logError = (message) => {
        try {
          logger.error(message);
        } catch {
          // The app's logger failed: the request is answered all the same.
        }
      };
    }
    const handler = createFetchHandler(built, { ...options, path: routePath, health: options.health === true, ...(!logger && { logError }) });
    // The handlers hold the app before each start; a failed start lets go, answers 503 and is tried again on the next request.
    const starter = createAppStarter(built, (error) => logError(`toolwright next: the MCP server did not start: ${(error as Error)?.stack ?? String(error)}`));
    return { handler, starter, isOAuthPath: authorizationServerPaths(built) };
  });
  let served: { handler: FetchHandler; starter: AppStarter; isOAuthPath: (path: string) => boolean } | undefined;
  opened.then(
    (value) => void (served = value),
    (error: unknown) => logError(`toolwright next: the MCP server did not start: ${(error as Error)?.stack ?? String(error)}`),
  );
  const ready = opened.then(async ({ starter }) => void (await starter.start()));
  // A failed start is reported by `ready` and each request's 503; it is not an unhandled rejection.
  ready.catch(() => undefined);
  let warned = false;

  const handle: RouteHandler = async (request) => {
    let current: typeof served;
    try {
      current = await opened;
      // Waits for the start, or starts the app again after a failed one (closed, it starts nothing: the handler answers 503).
      await current.starter.start();
    } catch {
      return answer(503, { jsonrpc: '2.0', error: { code: -32000, message: 'Service unavailable: the MCP server did not start. Its log has the details.' }, id: null });
    }
    const live = current.handler;
    const path = new URL(request.url).pathname;
    // As a request's URL spells it: a route folder named `outils métier` is served at `/outils%20m%C3%A9tier`.
    const mcpPath = live.path;
    if (path !== mcpPath && !path.startsWith('/.well-known/') && !current.isOAuthPath(path)) {
      if (!warned) {
        warned = true;
        logError(`toolwright next: a route handler for ${mcpPath} was called at ${path}; set createRouteHandlers(app, { path: '${path}' }).`);
      }
      return answer(404, {
        error: 'not_found',
        error_description: `This route serves the MCP endpoint at ${mcpPath}, not ${path}: set createRouteHandlers(app, { path: '${path}' }), or move the route to app${routePath}/route.ts.`,
      });
    }
    if (request.bodyUsed) {
      logError(
        `toolwright next: the body of ${request.method} ${path} was read before the route handler got the request, so the endpoint cannot read it. ` +
          'Hand the handler the request unread: read a copy first (await request.clone().json()).',
      );
      return answer(500, { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error: the request body was read before the MCP endpoint got it. The server log has the details.' }, id: null });
    }
    return live(request);
  };

  let closing: Promise<void> | undefined;
  const close = (closeOptions?: { drainTimeoutMs?: number }): Promise<void> => {
    // Checked before the close begins: a wrong drain time leaves the route serving, and a corrected call closes it.
    let drain: DrainWindow;
    try {
      drain = drainWindow('createRouteHandlers(...).close({ drainTimeoutMs })', closeOptions?.drainTimeoutMs);
    } catch (error) {
      return Promise.reject(error);
    }
    return (closing ??= (async () => {
      // An app that was never built started nothing: there is nothing to stop (its failure was logged, and `ready` rejects with it).
      const built = await opened.catch(() => undefined);
      if (!built) return;
      await built.handler.close({ drainTimeoutMs: drain.ms });
      // The app's work in flight outside the requests (a task's run) gets what is left of the same drain time.
      await built.starter.release(drain.left());
    })());
  };

  return Object.freeze({
    GET: handle,
    POST: handle,
    DELETE: handle,
    PUT: handle,
    PATCH: handle,
    OPTIONS: handle,
    ready,
    get sessionCount() {
      return served?.handler.sessionCount ?? 0;
    },
    close,
  });
}

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
