import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { EventStore } from '@modelcontextprotocol/server';

export interface SdkStreamableTransportSettings {
  /** Stateful: the session's id. Stateless: undefined. */
  sessionId: string | undefined;
  jsonResponse: boolean;
  eventStore: EventStore | undefined;
  retryMs: number | undefined;
}

/**
 * The SDK's own Streamable HTTP transport (`@modelcontextprotocol/node`), the fallback behind
 * `httpTransport: 'sdk'`. Loaded only when asked for: it brings hono and its node adapter.
 */
export function createSdkStreamableTransport(settings: SdkStreamableTransportSettings): NodeStreamableHTTPServerTransport {
  const { NodeStreamableHTTPServerTransport: SdkTransport } = require('@modelcontextprotocol/node') as typeof import('@modelcontextprotocol/node');
  const id = settings.sessionId;
  return new SdkTransport({
    sessionIdGenerator: id === undefined ? undefined : () => id,
    enableJsonResponse: settings.jsonResponse,
    eventStore: settings.eventStore,
    retryInterval: settings.retryMs,
  });
}
