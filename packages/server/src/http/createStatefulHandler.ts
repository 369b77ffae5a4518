import type { IncomingMessage } from 'node:http';
import type { ServerFactory } from '../serving/ServerFactory';
import { createSessionPool } from './createSessionPool';
import { createStreamableTransport, type StreamableTransportKind } from './createStreamableTransport';
import type { EventStoreFactory } from './EventStore';
import type { McpRequest, ModeHandler, TrackPost } from './ModeHandler';
import type { InitializeRateLimit } from './InitializeRateLimit';
import { sendAnswer } from './respond';
import type { SessionLimits } from './SessionStore';
import type { SessionSharing } from './SessionSharing';

export interface StatefulHandlerOptions {
  transportKind: StreamableTransportKind;
  jsonResponse: boolean;
  /** A store per session for resumable SSE streams; undefined: none. */
  eventStores: EventStoreFactory | undefined;
  sseRetryMs: number | undefined;
  maxBufferedBytes: number | undefined;
  limits: SessionLimits;
  /** The `initialize` rate per owner; undefined: none. */
  initializeRate: InitializeRateLimit | undefined;
  /** The client address an anonymous caller's sessions and initialize rate are counted by. */
  clientAddressOf: ((req: IncomingMessage) => string | undefined) | undefined;
  trackPost: TrackPost;
}

/**
 * Stateful Streamable HTTP (2025-11-25) on node's `(req, res)`: the endpoint's session pool
 * (`createSessionPool`, shared with the fetch handler) finds or opens the session, within the
 * limits, bound to the caller who opened it; its transport answers. `sharing` says where
 * sessions are recorded and found.
 */
export function createStatefulHandler(app: ServerFactory, options: StatefulHandlerOptions, sharing: SessionSharing): ModeHandler & { readonly sessionCount: number } {
  const clientAddressOf = options.clientAddressOf ?? remoteAddressOf;
  const pool = createSessionPool(
    app,
    {
      ...options,
      createTransport: (sessionId, eventStore, streamIdPrefix) =>
        createStreamableTransport(options.transportKind, {
          sessionId,
          jsonResponse: options.jsonResponse,
          eventStore,
          retryMs: options.sseRetryMs,
          maxBufferedBytes: options.maxBufferedBytes,
          ...(streamIdPrefix !== undefined && { streamIdPrefix }),
        }),
    },
    sharing,
  );

  async function handle({ req, res, body, auth, entry }: McpRequest): Promise<void> {
    const method = req.method ?? 'GET';
    const outcome = await pool.resolve({
      method,
      body,
      auth,
      sessionId: headerOf(req, 'mcp-session-id'),
      protocolVersion: headerOf(req, 'mcp-protocol-version'),
      clientAddress: () => clientAddressOf(req),
    });
    if ('answer' in outcome) return sendAnswer(res, outcome.answer);
    const { session } = outcome;
    entry.session = session.id;
    res.once('close', pool.begin(session));
    if (method === 'POST') options.trackPost(res);
    await session.transport.handleRequest(req, res, outcome.body);
  }

  return {
    handle,
    get sessionCount() {
      return pool.size;
    },
    async abandon(reason) {
      await Promise.all([...pool.values()].map((s) => s.transport.abandon?.(reason)));
    },
    close: () => pool.close(),
  };
}

const remoteAddressOf = (req: IncomingMessage): string | undefined => req.socket?.remoteAddress;

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}
