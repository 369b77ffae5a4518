import type { ServerResponse } from 'node:http';
import type { HttpRefusal } from './HttpRefusal';

/** Sends a JSON body with the given status (and extra headers). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
}

/**
 * Sends a JSON-RPC error for a request that never reached the MCP layer (id null, as the
 * spec allows for transport-level failures). Codes follow the SDK's transport: -32000
 * for HTTP-level refusals, -32001 for an unknown session, -32700 for unparsable bodies.
 */
export function sendRpcError(res: ServerResponse, status: number, code: number, message: string, headers?: Record<string, string>): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

/** Refuses a request while the server shuts down: the client should retry elsewhere. */
export function refuseClosing(res: ServerResponse): void {
  sendRpcError(res, 503, -32000, 'Service unavailable: the server is shutting down. Retry on another instance.', { Connection: 'close', 'Retry-After': '1' });
}

/** Writes a decided answer (`HttpRefusal`); one without a body (`body: undefined`) as its status and headers alone. */
export function sendAnswer(res: ServerResponse, answer: HttpRefusal): void {
  if (answer.body === undefined) return void res.writeHead(answer.status, answer.headers).end();
  sendJson(res, answer.status, answer.body, answer.headers as Record<string, string> | undefined);
}
