import { isModernMessage } from '../sdk/isModernMessage';
import { invalidMessageError, type InvalidMessageError } from '../rpc/invalidMessageError';
import { jsonRpcKind } from '../rpc/jsonRpcKind';

type Message = { method?: unknown; id?: unknown; params?: { name?: unknown; protocolVersion?: unknown } };

/** The first message of a POST body (a single message or a batch). */
export function firstMessage(body: unknown): Message | undefined {
  const first = Array.isArray(body) ? body[0] : body;
  return typeof first === 'object' && first !== null ? (first as Message) : undefined;
}

export function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => typeof m === 'object' && m !== null && (m as Message).method === 'initialize' && 'id' in m);
}

/** The tool a single `tools/call` body names, if it is one. */
export function calledTool(body: unknown): string | undefined {
  if (Array.isArray(body)) return undefined;
  const message = firstMessage(body);
  return message?.method === 'tools/call' && typeof message.params?.name === 'string' ? message.params.name : undefined;
}

/** The first message of a body that the SDK would not accept, as the error that answers it; an empty batch is one (JSON-RPC 2.0 §6). */
export function invalidMessageOf(body: unknown): InvalidMessageError | undefined {
  if (!Array.isArray(body)) return jsonRpcKind(body) === undefined ? invalidMessageError(body) : undefined;
  if (body.length === 0) return EMPTY_BATCH;
  for (const message of body) if (jsonRpcKind(message) === undefined) return invalidMessageError(message);
  return undefined;
}

/** The answer to `[]`: the SDK's web-standard transport would accept it (202) and answer nothing. */
const EMPTY_BATCH: InvalidMessageError = {
  jsonrpc: '2.0',
  id: null,
  error: { code: -32600, message: 'Invalid Request: the batch (JSON array) is empty. Send one message, or a batch of 1 to 100.' },
};

/** True if the body holds a request (not only responses and notifications). */
export function hasRequest(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => jsonRpcKind(m) === 'request') : jsonRpcKind(body) === 'request';
}

/** A 2026-07-28 retry that carries the client's input responses: the client answering the server's input requests. */
export function isRoundAnswer(body: unknown): boolean {
  const params = (body as { params?: unknown } | null)?.params;
  return isModernMessage(body) && typeof params === 'object' && params !== null && typeof (params as { inputResponses?: unknown }).inputResponses === 'object';
}
