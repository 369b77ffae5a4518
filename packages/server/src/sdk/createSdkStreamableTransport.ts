import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { EventStore, JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/server';
import { SHUTTING_DOWN } from '../rpc/shuttingDown';

export interface SdkStreamableTransportSettings {
  /** Stateful: the session's id. Stateless: undefined. */
  sessionId: string | undefined;
  jsonResponse: boolean;
  eventStore: EventStore | undefined;
  retryMs: number | undefined;
}

/** The SDK's transport, with what shutdown needs of it. */
export type SdkStreamableTransport = NodeStreamableHTTPServerTransport & {
  /** Answers every request still open with an error (shutdown gave up waiting); later answers to them are dropped. */
  abandon(reason: string): Promise<void>;
};

/**
 * The SDK's own Streamable HTTP transport (`@modelcontextprotocol/node`), the fallback behind
 * `httpTransport: 'sdk'`. Loaded only when asked for: it brings hono and its node adapter.
 * It keeps no list of open requests that shutdown could answer, so the requests it hands
 * the server and the answers the server sends are counted here.
 */
export function createSdkStreamableTransport(settings: SdkStreamableTransportSettings): SdkStreamableTransport {
  const { NodeStreamableHTTPServerTransport: SdkTransport } = require('@modelcontextprotocol/node') as typeof import('@modelcontextprotocol/node');
  const id = settings.sessionId;
  const transport = new SdkTransport({
    sessionIdGenerator: id === undefined ? undefined : () => id,
    enableJsonResponse: settings.jsonResponse,
    eventStore: settings.eventStore,
    retryInterval: settings.retryMs,
  }) as SdkStreamableTransport;

  const open = new Set<RequestId>();
  let deliver: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  const receive = (message: JSONRPCMessage, extra?: MessageExtraInfo): void => {
    if ('method' in message) {
      if ('id' in message) open.add(message.id);
      else if (message.method === 'notifications/cancelled') open.delete((message.params as { requestId?: RequestId } | undefined)?.requestId as RequestId);
    }
    deliver?.(message, extra);
  };
  // The server installs its reader on connect; the SDK's transport gets it wrapped, so each request is
  // counted first. Reading the property gives what was installed (a reader that wraps it in turn
  // must not get the counting wrapper back, or each message would loop through both).
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => deliver,
    set: (handler: typeof deliver) => {
      deliver = handler;
      Object.getOwnPropertyDescriptor(Object.getPrototypeOf(transport), 'onmessage')!.set!.call(transport, handler && receive);
    },
  });
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    if (!('method' in message) && 'id' in message && message.id !== undefined) {
      // One response per request: an answer to a request already answered (abandoned) is dropped.
      if (!open.delete(message.id)) return;
    }
    return send(message, options);
  };
  transport.abandon = async (reason) => {
    for (const request of [...open]) await transport.send({ jsonrpc: '2.0', id: request, error: { code: SHUTTING_DOWN, message: reason } } as JSONRPCMessage);
  };
  return transport;
}
