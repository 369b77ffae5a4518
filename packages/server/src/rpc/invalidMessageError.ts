import { isId, isObject, optionalParams, validMeta } from './jsonRpcKind';

/** The JSON-RPC error that answers a message `jsonRpcKind` refused. */
export interface InvalidMessageError {
  jsonrpc: '2.0';
  /** The request's id when it has a usable one; otherwise null, as JSON-RPC 2.0 requires. */
  id: string | number | null;
  error: { code: -32600; message: string };
}

const KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * Answers a message that is valid JSON but not a message the SDK accepts (call it only
 * after `jsonRpcKind` returned undefined): -32600 with the reason, echoing the id of a
 * request whose id is usable, and id null for anything else (an unusable id, or a
 * malformed response, which is no request to answer). So the client hears back instead of
 * waiting for an answer the SDK would never send.
 */
export function invalidMessageError(value: unknown): InvalidMessageError {
  const request = isObject(value) && 'method' in value;
  const id = request && isId(value.id) ? value.id : null;
  return { jsonrpc: '2.0', id, error: { code: -32600, message: `Invalid Request: ${reasonOf(value)}` } };
}

function reasonOf(value: unknown): string {
  if (Array.isArray(value)) return 'a batch (JSON array) is not accepted here; send one message at a time.';
  if (!isObject(value)) return 'a JSON-RPC message is a JSON object.';
  if (value.jsonrpc !== '2.0') return 'the message must have "jsonrpc": "2.0".';
  if (!('method' in value) && !('result' in value) && !('error' in value)) return 'a message needs "method" (a request or notification), or "result" or "error" (a response).';
  if ('id' in value && !isId(value.id)) {
    return '"id" must be a string or an integer between -(2^53-1) and 2^53-1 (JSON-RPC ids of null, fractions, objects and larger numbers are not accepted).';
  }
  if ('method' in value) {
    if (typeof value.method !== 'string') return '"method" must be a string.';
    if (value.params !== undefined && !isObject(value.params)) return '"params" must be an object when present.';
    if (!optionalParams(value.params)) return '"params._meta" must be an object; its progressToken a string or integer.';
    const extra = Object.keys(value).filter((key) => !KEYS.has(key));
    return extra.length > 0
      ? `unexpected member(s) ${extra.map((k) => JSON.stringify(k)).join(', ')}; a request holds only jsonrpc, id, method and params.`
      : 'the message is not a JSON-RPC request or notification.';
  }
  if ('result' in value) {
    if (!isObject(value.result) || !validMeta(value.result._meta)) return '"result" must be an object (with a well-formed "_meta", if any).';
    return !('id' in value) ? 'a response needs the "id" of the request it answers.' : 'a response holds only jsonrpc, id and result.';
  }
  return '"error" must be an object with an integer "code" and a string "message", and the response nothing but jsonrpc, id and error.';
}
