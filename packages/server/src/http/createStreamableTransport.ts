import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@toolwright/core';
import { createSdkStreamableTransport } from '../sdk/createSdkStreamableTransport';
import type { EventStore } from './EventStore';
import type { SessionTransport } from './HttpSession';
import { NodeStreamableTransport } from './NodeStreamableTransport';

/** What the stateful and stateless handlers need of a Streamable HTTP server transport: ours or the SDK's. */
export interface StreamableTransport extends SessionTransport {
  handleRequest(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse, parsedBody?: unknown): Promise<void>;
  /** Answers the requests still open with an error, on shutdown (ours; the SDK's as wrapped in createSdkStreamableTransport). */
  abandon?(reason: string): Promise<void>;
}

/** Which implementation serves the endpoint (see `HttpHandlerOptions.httpTransport`). */
export type StreamableTransportKind = 'toolwright' | 'sdk';

export interface StreamableTransportSettings {
  /** Stateful: the session's id. Stateless: undefined. */
  sessionId: string | undefined;
  jsonResponse: boolean;
  eventStore: EventStore | undefined;
  /** The `retry:` (ms) clients are told to wait before reconnecting to a closed SSE stream. */
  retryMs: number | undefined;
  /** Most bytes an SSE stream may hold unsent (ours only; the SDK's has no such limit). */
  maxBufferedBytes?: number;
}

/** Creates the transport for one session (or one stateless request). */
export function createStreamableTransport(kind: StreamableTransportKind, settings: StreamableTransportSettings): StreamableTransport {
  return kind === 'toolwright' ? new NodeStreamableTransport(settings) : createSdkStreamableTransport(settings);
}
