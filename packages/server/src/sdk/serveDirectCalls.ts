import type { JSONRPCMessage, MessageExtraInfo, RequestId, Server, Transport } from '@modelcontextprotocol/server';
import { jsonRpcKind } from '../rpc/jsonRpcKind';
import type { DirectToolCall } from './registerToolHandlers';

const INTERNAL_ERROR = -32603;
const RESOURCE_NOT_FOUND = -32002;
const INVALID_PARAMS = -32602;

/**
 * Serves a 2025-era connection's plain `tools/call` requests straight from the transport,
 * before the SDK's `Protocol` sees them; everything else goes on to the SDK as before.
 *
 * For such a call (a tool with no context, guard, middleware, timeout or scoped service)
 * the SDK adds nothing but cost: three zod parses of the message to classify it, an
 * `AbortController`, a context of a dozen closures and a chain of promises. The answer is
 * the SDK's own, byte for byte: `{ result, jsonrpc, id }`, or the error the SDK would make
 * of a rejection; no answer once the client cancelled the request or the connection closed.
 *
 * Call right after `server.connect(transport)` has installed the SDK's `onmessage` (it does
 * so synchronously); `onerror` gets what the SDK would report as a failed send.
 */
export function serveDirectCalls(transport: Transport, direct: DirectToolCall, server: Server): void {
  const toSdk = transport.onmessage;
  if (!toSdk) return;
  /** Requests served here and not answered yet: true once the client cancelled one. */
  const running = new Map<RequestId, boolean>();
  let closed = false;
  const onclose = transport.onclose;
  transport.onclose = () => {
    closed = true;
    onclose?.();
  };
  transport.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
    const m = message as { method?: unknown; id?: RequestId; params?: { requestId?: unknown } };
    if (m.method === 'tools/call' && extra?.classification === undefined && !running.has(m.id!) && jsonRpcKind(message) === 'request') {
      const answer = direct(m.params, extra?.authInfo);
      if (answer) {
        const id = m.id!;
        running.set(id, false);
        answer
          .then(
            (result) => (running.get(id) || closed ? undefined : transport.send({ result, jsonrpc: '2.0', id } as JSONRPCMessage)),
            (error: { code?: unknown; message?: string; data?: unknown }) => {
              if (running.get(id) || closed) return undefined;
              const code = Number.isSafeInteger(error.code) ? (error.code as number) : INTERNAL_ERROR;
              const failure = { code: code === RESOURCE_NOT_FOUND ? INVALID_PARAMS : code, message: error.message ?? 'Internal error', ...(error.data !== undefined && { data: error.data }) };
              return transport.send({ jsonrpc: '2.0', id, error: failure } as JSONRPCMessage);
            },
          )
          .catch((error: unknown) => server.onerror?.(new Error(`Failed to send response: ${String(error)}`)))
          .finally(() => running.delete(id));
        return;
      }
    } else if (m.method === 'notifications/cancelled' && running.size > 0) {
      const id = m.params?.requestId as RequestId;
      if (running.has(id)) running.set(id, true);
    }
    toSdk(message, extra);
  };
}
