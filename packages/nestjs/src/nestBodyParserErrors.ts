import type { IncomingMessage, ServerResponse } from 'node:http';

/** An Express error handler, typed structurally (the package does not depend on Express's types). */
export type ExpressErrorHandler = (error: unknown, req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * Express error handlers around `@toolwright/express`'s middleware on Nest's Express platform.
 * Nest mounts its `json` and `urlencoded` body parsers before every route and module, so they
 * read MCP bodies first; what they refuse on the endpoint is answered here as the endpoint
 * answers it standalone, in JSON-RPC, never with Nest's error JSON, an app's exception filter,
 * or the parser's text (it may quote the body). Other errors go on to the app's handlers.
 *
 * `before` runs ahead of the middleware's own parse-error answers: a body that is not JSON is
 * 415 whatever the urlencoded parser said of it, and a body over Nest's JSON limit names Nest's
 * fix. `after` answers what the middleware does not know (the urlencoded parser's limits, a
 * Content-Encoding that does not decode).
 */
export function nestBodyParserErrors(mcpPath: string): { before: ExpressErrorHandler; after: ExpressErrorHandler } {
  const refused = (error: unknown, req: IncomingMessage & { originalUrl?: string }, res: ServerResponse): error is BodyParserError =>
    !res.headersSent && isBodyParserError(error) && pathOf(req.originalUrl ?? req.url ?? '') === mcpPath;

  const before: ExpressErrorHandler = (error, req, res, next) => {
    if (!refused(error, req, res)) return next(error);
    if (!isJsonContentType(req.headers['content-type'])) return answer(res, 415, -32000, 'Unsupported Media Type: send the body with Content-Type: application/json.');
    if (error.type === 'entity.too.large') return answer(res, 413, -32000, tooLarge(error));
    next(error);
  };
  const after: ExpressErrorHandler = (error, req, res, next) => {
    if (!refused(error, req, res)) return next(error);
    if (error.status === 413) return answer(res, 413, -32000, tooLarge(error));
    answer(res, 400, -32700, "Parse error: Nest's body parser could not read the request body (its Content-Encoding does not decode, or it is not UTF-8 JSON). Send it as UTF-8 JSON.");
  };
  return { before, after };
}

/** What body-parser (and raw-body under it) fails with: an http-errors error with its `type`, or a zlib error it marked 4xx. */
interface BodyParserError {
  readonly status: number;
  readonly type?: string;
  readonly limit?: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  if (typeof error !== 'object' || error === null) return false;
  const { status, type, code, expose } = error as { status?: unknown; type?: unknown; code?: unknown; expose?: unknown };
  if (typeof status !== 'number' || typeof expose !== 'boolean') return false;
  return typeof type === 'string' || (typeof code === 'string' && code.startsWith('Z_'));
}

function tooLarge(error: BodyParserError): string {
  const limit = typeof error.limit === 'number' ? `${error.limit} bytes` : 'its limit';
  return (
    `Payload too large: the request body exceeds ${limit}, the limit of Nest's body parser, which reads it before the MCP endpoint. ` +
    "Send less data, or raise it before app.listen(): app.useBodyParser('json', { limit: '4mb' }) (http.maxBodyBytes applies too)."
  );
}

function answer(res: ServerResponse, status: number, code: number, message: string): void {
  // A body refused before its end was not read: the connection cannot carry another request.
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (status === 413) headers.Connection = 'close';
  res.writeHead(status, headers).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const semi = value.indexOf(';');
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase() === 'application/json';
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
