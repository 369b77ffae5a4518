import { invalidMessageError } from './invalidMessageError';
import { isId, isObject, jsonRpcKind } from './jsonRpcKind';

/** The well-formed error response that stands for a client's malformed answer. */
export interface MalformedAnswer {
  readonly jsonrpc: '2.0';
  readonly id: string | number;
  readonly error: { readonly code: -32600; readonly message: string };
}

/**
 * A client's answer to a request of the server's (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`) that is no message the SDK accepts (call it only after `jsonRpcKind` returned
 * undefined): an `error` that is not an object, a `code` that is no integer, a missing `message`,
 * a `result` that is no object, a key beyond jsonrpc, id and result or error. The SDK would drop it
 * and its request would wait for its timeout (10 minutes for a form); this error response, handed
 * to the SDK in its place, ends that wait now and says what was wrong. Nothing of the client's
 * answer is kept but its id. Undefined for a request, a notification, and an answer without a
 * usable id, which answers no request.
 */
export function malformedAnswer(value: unknown): MalformedAnswer | undefined {
  if (!isObject(value) || 'method' in value || !('result' in value || 'error' in value) || !isId(value.id)) return undefined;
  const reason = invalidMessageError(value).error.message.replace(/^Invalid Request: /, '');
  return { jsonrpc: '2.0', id: value.id, error: { code: -32600, message: `its response is not valid JSON-RPC: ${reason}` } };
}

/** The malformed answers among the messages of a POST body (one message or a batch), each as `malformedAnswer` makes it. */
export function malformedAnswersOf(body: unknown): MalformedAnswer[] {
  const answers: MalformedAnswer[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    const answer = jsonRpcKind(message) === undefined ? malformedAnswer(message) : undefined;
    if (answer) answers.push(answer);
  }
  return answers;
}
