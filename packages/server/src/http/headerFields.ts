import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/**
 * The request's header fields, as a tool reads them in `ctx.headers`. Node's HTTP/2
 * compatibility API lists the pseudo-headers (`:method`, `:path`, `:authority`, ...) among a
 * request's headers; they are no header fields, and HTTP/1 has none, so only an HTTP/2 request
 * is copied without them.
 */
export function headerFields(req: IncomingMessage): IncomingHttpHeaders {
  if (req.httpVersionMajor !== 2) return req.headers;
  const fields: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) if (name.charCodeAt(0) !== 0x3a /* : */) fields[name] = value;
  return fields;
}
