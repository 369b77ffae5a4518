import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import type { App } from '@toolwright/server';
import { checkHttpHandlerOptions, createHttpHandler, type HttpHandler } from '@toolwright/server/http';
import { adoptParsedBody } from './adoptParsedBody';
import { bodyParsersOutsideMount } from './bodyParsersOutsideMount';
import { bodyParserRefusal, unparsedJsonText, type BodyParserRefusal } from './bodyParserRefusal';
import { createAppStarter, drainWindow } from '@toolwright/server/http';
import type { ToolwrightExpressOptions } from './ToolwrightExpressOptions';

/**
 * Express middleware serving an app's MCP endpoint, with its lifecycle: the request handler,
 * then the error handler that answers `express.json()`'s refusals on the endpoint. Express
 * takes the pair as one (`app.use(mcp)`).
 */
export interface ToolwrightMiddleware extends Array<RequestHandler | ErrorRequestHandler> {
  /** Settles once the app's start hooks ran (requests wait for it); rejects with a `StartupError` when one failed (a later request on the endpoint starts the app again). */
  readonly ready: Promise<void>;
  /** Live 2025-11-25 sessions. */
  readonly sessionCount: number;
  /**
   * Graceful stop: new MCP requests get 503, running calls get `drainTimeoutMs` to finish,
   * sessions and their SSE streams end, then the app's shutdown hooks run (once its work still
   * in flight, such as a task's run, settled or the rest of `drainTimeoutMs` passed). Call it before
   * `server.close()`, which waits for those streams.
   */
  close(): Promise<void>;
}

const DRAIN_OPTION = 'toolwrightMiddleware(app, { drainTimeoutMs })';
/** The middleware's options beside `createHttpHandler`'s. */
const OWN_OPTIONS = ['drainTimeoutMs'];

/**
 * Mounts a Toolwright app in an Express 5 app: `app.use(toolwrightMiddleware(mcpApp))` or
 * `app.use('/mcp', toolwrightMiddleware(mcpApp))`. Both protocol eras, sessions,
 * Host/Origin checks and auth as `app.listen({ transport: 'http' })` serves them; other
 * requests go on to the app's own routes. A body `express.json()` already parsed is used as
 * is (its limit then applies); its parse errors on the endpoint are answered as JSON-RPC errors.
 */
export function toolwrightMiddleware(app: App, options: ToolwrightExpressOptions = {}): ToolwrightMiddleware {
  checkHttpHandlerOptions(options, { call: 'toolwrightMiddleware (@toolwright/express)', own: OWN_OPTIONS, docsPage: 'Express 5' });
  const { drainTimeoutMs, ...handlerOptions } = options;
  // Checked when mounted: a wrong drain time fails here, not at the close.
  const drainMs = drainWindow(DRAIN_OPTION, drainTimeoutMs).ms;
  const handler: HttpHandler = createHttpHandler(app, { ...handlerOptions, health: options.health ?? false });
  // As the handler matches it, and as req.originalUrl spells it: `mcp` is served at `/mcp`, `/outils métier` at `/outils%20m%C3%A9tier`.
  const mcpPath = handler.path;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  // The endpoint holds the app before each start; a failed start lets go, answers 503 and is tried again on the endpoint's next request.
  const starter = createAppStarter(app, (error) => logStartFailure(app, error));
  let failed = false;
  const start = (): Promise<boolean> =>
    starter.start().then(
      (started) => ((failed = false), started),
      (error: unknown) => {
        failed = true;
        throw error;
      },
    );
  const ready = start().then(() => undefined);
  // A failed start hook is reported by `ready` (and each request's 503); it is not an unhandled rejection.
  ready.catch(() => undefined);
  let mountChecked = false;

  const handle: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    if (!mountChecked && pathOf(req.originalUrl) === mcpPath) {
      mountChecked = true;
      warnOfParsersOutside(app, bodyParsersOutsideMount(req, answerParseErrors, mcpPath), mcpPath);
    }
    // Mounted under a path, express hides it from req.url; the handler matches the full path.
    const mountedUrl = req.url;
    req.url = req.originalUrl;
    const onward = (error?: unknown): void => {
      req.url = mountedUrl;
      next(error);
    };
    // While the app is not started, only a request on the endpoint starts it again; the others go on to the app's routes.
    if (failed && pathOf(req.originalUrl) !== mcpPath) return void onward();
    start().then(
      () => {
        // A body parser before the middleware spent the stream: the endpoint's limit and JSON rules are applied to what it kept.
        const refused = req.method === 'POST' && pathOf(req.originalUrl) === mcpPath ? adoptParsedBody(req, maxBodyBytes) : undefined;
        if (refused) return answer(res, refused);
        return handler(req as IncomingMessage, res as ServerResponse, onward);
      },
      () => refuseNotStarted(req, res, onward, mcpPath),
    );
  };
  // express.json() before the middleware refused the body: answer MCP clients in JSON-RPC, not with the app's error page.
  const answerParseErrors: ErrorRequestHandler = (error: unknown, req: Request, res: Response, next: NextFunction) => {
    const onEndpoint = pathOf(req.originalUrl) === mcpPath && !res.headersSent;
    // The text express.json() could not take (strict mode refuses `null` or `"x"`): parsed as the endpoint's own reader would.
    const text = onEndpoint ? unparsedJsonText(error) : undefined;
    if (text !== undefined) {
      req.body = text;
      return handle(req, res, next);
    }
    const refusal = onEndpoint ? bodyParserRefusal(error) : undefined;
    if (!refusal) return next(error);
    // A body too large was not read to its end: the connection cannot carry another request.
    if (refusal.status === 413) res.set('Connection', 'close');
    answer(res, refusal);
  };

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      const drain = drainWindow(DRAIN_OPTION, drainMs);
      await handler.close({ drainTimeoutMs: drain.ms });
      // The app's work in flight outside the requests (a task's run) gets what is left of the same drain time.
      await starter.release(drain.left());
    })());

  return Object.defineProperties([handle, answerParseErrors] as unknown as ToolwrightMiddleware, {
    ready: { value: ready },
    sessionCount: { get: () => handler.sessionCount },
    close: { value: close },
  });
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/** Says, once, where a body parser's refusals would go instead of the endpoint's JSON-RPC answers. */
function warnOfParsersOutside(app: App, parsers: string[], mcpPath: string): void {
  if (parsers.length === 0) return;
  const names = [...new Set(parsers)].join(' and ');
  const message =
    `toolwright express: ${names} runs in an app outside the express.Router() or sub-app the MCP middleware is mounted in, so its refusals of a body on ${mcpPath} (bad JSON, too large) ` +
    "reach your app's error handlers, not the endpoint's JSON-RPC answers: MCP clients get an error page (Express's default one shows the stack outside production). " +
    `Mount the middleware on the app itself, app.use(toolwrightMiddleware(mcpApp, { path: '${mcpPath}' })), or move the body parser into the router it is mounted in.`;
  try {
    (app.logger ?? console).warn(message);
  } catch {
    // The app's logger failed: the request is served all the same.
  }
}

/** Logs why the app did not start (once until a start succeeds: each request on the endpoint tries again). */
function logStartFailure(app: App, error: unknown): void {
  try {
    (app.logger ?? console).error(`toolwright express: the MCP server did not start: ${(error as Error)?.message ?? String(error)} (the endpoint answers 503; its next request starts the app again)`);
  } catch {
    // The app's logger failed: requests are answered all the same.
  }
}

function answer(res: Response, refusal: BodyParserRefusal): void {
  res.status(refusal.status).json(refusal.body);
}

function refuseNotStarted(req: Request, res: Response, next: (error?: unknown) => void, mcpPath: string): void {
  if (pathOf(req.originalUrl) !== mcpPath) return next();
  res.status(503).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Service unavailable: the MCP server did not start (a start hook failed). Its log has the details.' }, id: null });
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
