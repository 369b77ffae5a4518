import { CONNECTION_FIELDS } from '../http/withoutConnectionFields';

/**
 * The response with the CORS headers added and the connection-specific fields removed (a fetch
 * response's headers may be immutable: copied then). The runtime owns the connection: the SDK's
 * SSE answers say `Connection: keep-alive`, and an HTTP/2 response may carry none of these fields
 * (RFC 9113 §8.2.2).
 */
export function withHeaders(response: Response, extra: Readonly<Record<string, string>> | undefined): Response {
  if (!extra && !hasConnectionField(response.headers)) return response;
  const headers = new Headers(response.headers);
  for (const name of CONNECTION_FIELDS) headers.delete(name);
  for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function hasConnectionField(headers: Headers): boolean {
  for (const name of CONNECTION_FIELDS) if (headers.has(name)) return true;
  return false;
}
