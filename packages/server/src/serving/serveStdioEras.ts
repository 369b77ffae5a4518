import { serveStdio } from '../sdk/stdioEntry';
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '../sdk/sdk';
import { sdkServer } from '../sdk/sdkServer';
import type { McpServerHandle, ServerSetup } from './ServerFactory';
import { extendStdioListens } from './extendStdioListens';
import { isModernMessage } from '../sdk/isModernMessage';
import { listenedResources, listenRefusal, listenRefusalMessage } from './listenRefusal';
import { jsonRpcKind } from '../rpc/jsonRpcKind';
import { markLogged, wasLogged } from './loggedErrors';

/**
 * Serves one stdio connection in the era its first message asks for. A 2025-era client
 * (`initialize`, or no claim) gets a server connected straight to the transport, as before
 * the eras, with nothing added per message. A 2026-07-28 client (or a `server/discover`
 * probe, after which a client may still fall back to `initialize`) goes to the SDK's stdio
 * entry, which pins the era, serves `subscriptions/listen` and answers bad claims.
 *
 * `transport.start()` must be safe to call again: both paths call it. Its `onmessage` is taken over.
 * A connection for which `factory` makes no server has its requests answered with -32603, and
 * the failure is logged once: not again for each request, nor when the factory logged it itself
 * (an app that refuses to serve, see `markLogged`).
 */
export function serveStdioEras(transport: Transport, serverFor: (context: { era: 'legacy' | 'modern' }) => McpServerHandle, report: (error: Error) => void): { close(): Promise<void> } {
  let close: () => Promise<void> = async () => undefined;
  const onerror = (error: Error): void => {
    if (!wasLogged(error)) report(error);
  };
  // The SDK's stdio entry asks for a server again with each message until one is made, and reports each failure: the first is reported here, once.
  let failed = false;
  const factory = (context: { era: 'legacy' | 'modern' }): McpServerHandle => {
    try {
      return serverFor(context);
    } catch (error) {
      if (!failed) onerror(error as Error);
      failed = true;
      throw markLogged(error);
    }
  };
  // What the transport refuses before a first message picks the era (a malformed first line) is reported too.
  transport.onerror = onerror;
  transport.onmessage = (first, extra) => {
    transport.onmessage = undefined;
    // Both paths install their own `onmessage` synchronously, so no message can slip past.
    if (isModernMessage(first)) {
      const handle = serveStdio((context) => sdkServer(factory(context)), { transport, onerror });
      close = () => handle.close();
      checkListens(transport, () => factory({ era: 'legacy' }), onerror);
      extendStdioListens(transport, factory as (setup: ServerSetup) => McpServerHandle, onerror);
    } else {
      let server: McpServerHandle;
      try {
        server = factory({ era: 'legacy' });
      } catch {
        // No server for this connection (an app that refuses to serve, see App.createServer; `factory` logged why): the client is told, not left
        // waiting. This request and every later one get the generic error (a first message may be a notification); notifications get nothing.
        transport.onmessage = (message) => {
          if (jsonRpcKind(message) === 'request') void transport.send(noServer((message as { id: string | number }).id)).catch(onerror);
        };
        deliver(transport, first, extra);
        return;
      }
      close = () => server.close();
      // The SDK chains the transport's onerror (set above): what the transport refuses later is reported as in the 2026-07-28 era.
      server.connect(transport).catch(onerror);
    }
    deliver(transport, first, extra);
  };
  return { close: () => close() };
}

/**
 * The SDK's stdio entry serves `subscriptions/listen` itself and would take any URI: the
 * resources a listen names pass the app's own `resources/subscribe` checks first (existence,
 * scopes, roles, guards), as over HTTP, so the caller hears of none it may not read.
 */
function checkListens(transport: Transport, checkingServer: () => McpServerHandle, onerror: (error: Error) => void): void {
  const serve = transport.onmessage;
  if (!serve) return;
  transport.onmessage = (message, extra) => {
    const listened = listenedResources(message);
    if (!listened) return serve(message, extra);
    listenRefusal(checkingServer, listened, undefined)
      .then((refused) => (refused ? transport.send(listenRefusalMessage(message, refused)) : serve(message, extra)))
      .catch(onerror);
  };
}

/** The answer to a request of a connection for which no server could be made: the generic internal error (the reason is in the log). */
function noServer(id: string | number): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error: the server could not serve this connection. Its log has the details.' } };
}

/** Hands a message to whoever now reads the transport. */
function deliver(transport: Transport, message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
  transport.onmessage?.(message, extra);
}
