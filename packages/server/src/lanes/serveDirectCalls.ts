import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport } from '../sdk/sdk';
import { jsonRpcKind } from '../rpc/jsonRpcKind';
import { EarlyAnswers } from './EarlyAnswers';
import type { McpServerHandle } from '../serving/ServerFactory';
import type { DirectToolCall } from '../handlers/registerToolHandlers';

/** Where the messages not served here go. */
export type Deliver = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

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
 * `toSdk` gets every other message: the SDK's `onmessage`, which `server.connect(transport)`
 * installs synchronously, or a function that makes the server on first need (stateless
 * HTTP). `onerror` gets what the SDK would report as a failed send.
 */
export function serveDirectCalls(transport: Transport, direct: DirectToolCall, toSdk: Deliver, onerror: (error: Error) => void): void {
  const early = new EarlyAnswers(transport, onerror);
  transport.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
    const m = message as { method?: unknown; id?: RequestId; params?: unknown };
    if (m.method === 'tools/call' && extra?.classification === undefined && !early.has(m.id!) && jsonRpcKind(message) === 'request') {
      const answer = direct(m.params, extra?.authInfo);
      if (answer) {
        const id = m.id!;
        early.serve(id, answer, {
          result: (result) => transport.send({ result, jsonrpc: '2.0', id } as JSONRPCMessage),
          error: (thrown) => {
            const error = thrown as { code?: unknown; message?: string; data?: unknown };
            const code = Number.isSafeInteger(error.code) ? (error.code as number) : INTERNAL_ERROR;
            const failure = { code: code === RESOURCE_NOT_FOUND ? INVALID_PARAMS : code, message: error.message ?? 'Internal error', ...(error.data !== undefined && { data: error.data }) };
            return transport.send({ jsonrpc: '2.0', id, error: failure } as JSONRPCMessage);
          },
        });
        return;
      }
    } else early.observe(m);
    toSdk(message, extra);
  };
}

/**
 * Stateless 2025-era HTTP: serves one request's transport, making its SDK `Server` only if
 * a message needs one. A POST of plain tool calls is answered without building a server
 * (its capabilities, handler tables and context), which is most of a stateless call's cost.
 * Returns what closes the exchange: the server, once made, or the transport alone.
 */
export function serveWithoutServer(transport: Transport, direct: DirectToolCall, makeServer: () => McpServerHandle, onerror: (error: Error) => void): { close(): Promise<void> } {
  let server: McpServerHandle | undefined;
  serveDirectCalls(
    transport,
    direct,
    (message, extra) => {
      if (!server) {
        // The SDK's `connect` calls the `onmessage` it finds first on every message: leave it none.
        transport.onmessage = undefined;
        server = makeServer();
        server.connect(transport).catch(onerror);
      }
      transport.onmessage?.(message, extra);
    },
    onerror,
  );
  return { close: () => (server ? server.close() : transport.close()) };
}
