import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { AuthInfo } from '@toolwright/core';
import type { EventStore, RequestId, Transport } from '@modelcontextprotocol/server';

/**
 * The stream id under which the SDK's web-standard transport stores the events of a session's
 * GET stream in its `EventStore` (what `getStreamIdForEventId` and `replayEventsAfter` give back
 * for it). Not exported by the SDK: `test/web-transport-facts.test.ts` pins it, so an SDK that
 * names it otherwise fails there first.
 */
export const SDK_GET_STREAM_ID = '_GET_stream';

export interface WebStandardTransportSettings {
  /** Stateful: the session's id. Stateless: undefined. */
  sessionId: string | undefined;
  jsonResponse: boolean;
  eventStore: EventStore | undefined;
  retryMs: number | undefined;
}

/** A 2025-era Streamable HTTP transport over web `Request`/`Response`, as the fetch handler uses it. */
export interface WebStandardTransport extends Transport {
  handleRequest(request: Request, options: { parsedBody?: unknown; authInfo?: AuthInfo }): Promise<Response>;
  /** Ends the SSE stream that carries the request `requestId` (the SDK's own, for polling). */
  closeSSEStream(requestId: RequestId): void;
  /** Ends the session's GET stream (the SDK's own). */
  closeStandaloneSSEStream(): void;
}

/**
 * The SDK's web-standard Streamable HTTP transport (`@modelcontextprotocol/server`), which runs
 * on every runtime with `Request` and `Response` (node, Deno, Bun, workerd): one per session,
 * or one per request when stateless. Its own Host/Origin checks stay off: the fetch handler's
 * rules have run before.
 */
export function createWebStandardTransport(settings: WebStandardTransportSettings): WebStandardTransport {
  const id = settings.sessionId;
  return new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: id === undefined ? undefined : () => id,
    enableJsonResponse: settings.jsonResponse,
    eventStore: settings.eventStore,
    retryInterval: settings.retryMs,
  }) as WebStandardTransport;
}
