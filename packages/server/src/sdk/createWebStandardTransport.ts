import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { AuthInfo } from '@toolwright/core';
import type { EventStore, Transport } from '@modelcontextprotocol/server';

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
