import type { IncomingHttpHeaders } from 'node:http';
import type { RequestId, ServerContext, Transport } from '@modelcontextprotocol/server';

/** A transport that keeps each open request's HTTP headers (Toolwright's node transports do). */
export interface RequestHeadersSource {
  requestHeaders(id: RequestId): IncomingHttpHeaders | undefined;
}

/**
 * The HTTP headers of the request being handled, lower-cased: from the transport when it
 * keeps them (no web `Request` is built per message), else from the SDK's web `Request`.
 * Undefined over stdio.
 */
export function requestHeadersOf(transport: Transport | undefined, ctx: ServerContext): Readonly<Record<string, string | string[] | undefined>> | undefined {
  if (transport && isHeadersSource(transport)) return transport.requestHeaders(ctx.mcpReq.id);
  const req = ctx.http?.req;
  return req ? Object.fromEntries(req.headers) : undefined;
}

function isHeadersSource(transport: Transport): transport is Transport & RequestHeadersSource {
  return typeof (transport as Partial<RequestHeadersSource>).requestHeaders === 'function';
}
