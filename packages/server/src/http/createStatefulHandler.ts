import type { IncomingMessage } from 'node:http';
import type { ServerFactory } from '../serving/ServerFactory';
import { createSessionPool, type SessionCall } from './createSessionPool';
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

export interface StatefulHandler extends ModeHandler {
  readonly sessionCount: number;
  /** Ends the questions that the malformed answers of a POST refused as invalid answer, in the session it names (see `SessionPool.failQuestions`). */
  failQuestions(request: Pick<McpRequest, 'req' | 'body' | 'auth'>): Promise<void>;
}

/**
 * Stateful Streamable HTTP (2025-11-25) on node's `(req, res)`: the endpoint's session pool
 * (`createSessionPool`, shared with the fetch handler) finds or opens the session, within the
 * limits, bound to the caller who opened it; its transport answers. `sharing` says where
 * sessions are recorded and found.
 */
export function createStatefulHandler(app: ServerFactory, options: StatefulHandlerOptions, sharing: SessionSharing): StatefulHandler {
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

  const callOf = ({ req, body, auth }: Pick<McpRequest, 'req' | 'body' | 'auth'>): SessionCall => ({
    method: req.method ?? 'GET',
    body,
    auth,
    sessionId: headerOf(req, 'mcp-session-id'),
    protocolVersion: headerOf(req, 'mcp-protocol-version'),
    clientAddress: () => clientAddressOf(req),
  });

  async function handle(request: McpRequest): Promise<void> {
    const { req, res, entry } = request;
    const call = callOf(request);
    const outcome = await pool.resolve(call);
    if ('answer' in outcome) return sendAnswer(res, outcome.answer);
    const { session } = outcome;
    entry.session = session.id;
    const end = pool.begin(session);
    res.once('close', () => end(res.statusCode));
    if (call.method === 'POST') options.trackPost(res);
    await session.transport.handleRequest(req, res, outcome.body);
  }

  return {
    handle,
    failQuestions: (request) => pool.failQuestions(callOf(request)),
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
