import { jsonRpcKind } from '../rpc/jsonRpcKind';
import type { RequestId } from '../sdk/sdk';

/** The ids of the requests a parsed POST body carries (one message or a batch); none for notifications and responses. */
export function requestIdsOf(body: unknown): RequestId[] {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.filter((message) => jsonRpcKind(message) === 'request').map((message) => (message as { id: RequestId }).id);
}
