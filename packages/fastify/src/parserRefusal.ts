import { BodyParseError } from './BodyParseError';

/** A JSON-RPC error answering a body Fastify's content-type parser refused on the MCP endpoint. */
export interface ParserRefusal {
  readonly status: number;
  readonly body: { jsonrpc: '2.0'; error: { code: number; message: string }; id: null };
}

const REFUSALS = new Map<number, { code: number; message: (limit: number) => string }>([
  [400, { code: -32700, message: () => 'Parse error: the request body is not valid JSON.' }],
  [413, { code: -32000, message: (limit) => `Payload too large: the request body exceeds ${limit} bytes. Send less data, or raise maxBodyBytes.` }],
  [415, { code: -32000, message: () => 'Unsupported Media Type: send the body with Content-Type: application/json.' }],
]);

/**
 * The JSON-RPC answer to an error Fastify raised while reading the body (bad JSON or UTF-8 from
 * the endpoint's parser, too large, a media type it has no parser for), so MCP clients get the
 * shape Toolwright's own reader gives; undefined for any other error. `whileParsing` says the
 * request's body was being parsed when the error came: a parser of the app's own for another
 * media type (`addContentTypeParser('text/plain', ...)`) that let `JSON.parse`'s SyntaxError
 * through without a status is then a parse error too, not a 500. The parser's message never
 * reaches the wire (it may quote the body).
 */
export function parserRefusal(error: unknown, limit: number, whileParsing = false): ParserRefusal | undefined {
  if (error instanceof BodyParseError) return { status: 400, body: { jsonrpc: '2.0', error: { code: -32700, message: error.message }, id: null } };
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  const syntax = error instanceof SyntaxError && (statusCode === 400 || (whileParsing && statusCode === undefined));
  // Fastify's own body errors carry an FST_ERR_CTP_ code; a JSON syntax error is a SyntaxError it marks 400.
  const status = (typeof code === 'string' && code.startsWith('FST_ERR_CTP_')) || syntax ? (statusCode ?? 400) : undefined;
  const refusal = typeof status === 'number' ? REFUSALS.get(status) : undefined;
  if (!refusal) return undefined;
  return { status: status as number, body: { jsonrpc: '2.0', error: { code: refusal.code, message: refusal.message(limit) }, id: null } };
}
