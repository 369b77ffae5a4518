/**
 * An HTTP answer decided without the runtime's request or response objects: a status, a JSON
 * body and extra headers. The rules of the endpoint (`createRequestRules`) return these; the
 * node router writes them with `sendJson`, the fetch router turns them into a `Response`.
 */
export interface HttpRefusal {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A JSON-RPC error for a request that never reached the MCP layer (id null, as the spec allows for transport-level failures). */
export function rpcRefusal(status: number, code: number, message: string, headers?: Record<string, string>): HttpRefusal {
  return { status, body: { jsonrpc: '2.0', error: { code, message }, id: null }, ...(headers && { headers }) };
}

/** The refusal of a request URL longer than `maxUrlLength` characters (414). */
export function uriTooLong(maxUrlLength: number): HttpRefusal {
  return rpcRefusal(414, -32000, `URI Too Long: the request URL exceeds ${maxUrlLength} characters. Send a shorter one, or raise maxUrlLength.`);
}

/** The refusal of a request while the server shuts down: the client should retry elsewhere. */
export const CLOSING_REFUSAL: HttpRefusal = rpcRefusal(503, -32000, 'Service unavailable: the server is shutting down. Retry on another instance.', {
  Connection: 'close',
  'Retry-After': '1',
});
