/** A JSON-RPC error response for a body a framework's parser refused before the MCP endpoint saw it. */
export interface BodyParserRefusal {
  readonly status: number;
  readonly body: { jsonrpc: '2.0'; error: { code: number; message: string }; id: null };
}

/** What body-parser (`express.json()`) reports, by its error `type`. */
const REFUSALS = new Map<string, { status: number; code: number; message: (limit: string) => string }>([
  ['entity.parse.failed', { status: 400, code: -32700, message: () => 'Parse error: the request body is not valid JSON.' }],
  ['entity.too.large', { status: 413, code: -32000, message: (limit) => `Payload too large: the request body exceeds ${limit}. Send less data, or raise the limit of express.json().` }],
  ['entity.verify.failed', { status: 403, code: -32000, message: () => 'Forbidden: the verify function of express.json() refused the body.' }],
  [
    'encoding.unsupported',
    { status: 415, code: -32000, message: () => 'Unsupported Media Type: the Content-Encoding is not one the body parser reads. Send the body uncompressed, or gzip/deflate/br.' },
  ],
  ['charset.unsupported', { status: 415, code: -32000, message: () => 'Unsupported Media Type: send the body as UTF-8 (Content-Type: application/json; charset=utf-8).' }],
  ['request.aborted', { status: 400, code: -32700, message: () => 'Parse error: the client stopped sending the body before its end.' }],
  ['request.size.invalid', { status: 400, code: -32700, message: () => 'Parse error: the body is not as long as its Content-Length says.' }],
]);

/**
 * The JSON-RPC answer to a body parser error on the MCP endpoint (`express.json()` mounted
 * before it), so MCP clients get the same shape as from Toolwright's own reader; undefined
 * for any other error, which stays with the app's error handlers. The parser's own message
 * never reaches the wire (it may quote the body).
 */
export function bodyParserRefusal(error: unknown): BodyParserRefusal | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, limit } = error as { type?: unknown; limit?: unknown };
  const refusal = typeof type === 'string' ? REFUSALS.get(type) : undefined;
  if (!refusal) return undefined;
  const limitText = typeof limit === 'number' ? `${limit} bytes` : 'the limit';
  return { status: refusal.status, body: { jsonrpc: '2.0', error: { code: refusal.code, message: refusal.message(limitText) }, id: null } };
}

/**
 * The text of a body `express.json()` failed to parse: its strict mode also refuses JSON that is
 * not an object or array (`null`, `"text"`, `1`), which the endpoint answers as Invalid Request
 * (-32600), as it does standalone. Undefined for any other error.
 */
export function unparsedJsonText(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, body } = error as { type?: unknown; body?: unknown };
  return type === 'entity.parse.failed' && typeof body === 'string' ? body : undefined;
}
