import { randomUUID } from 'node:crypto';
import type { AuthInfo } from '@toolwright/core';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '../sdk/sdk';
import type { ServerFactory } from '../serving/ServerFactory';
import type { SessionRecord } from './Cluster';
import { createStreamableTransport, type StreamableTransportKind } from './createStreamableTransport';
import type { EventStoreFactory } from './EventStore';
import type { HttpSession } from './HttpSession';
import { firstMessage, isInitialize } from './jsonRpcShape';
import type { McpRequest, ModeHandler, TrackPost } from './ModeHandler';
import { principalOf } from './principalOf';
import { sendRpcError } from './respond';
import { SessionStore, type SessionLimits } from './SessionStore';
import type { LocalSessions, SessionSharing } from './SessionSharing';

export interface StatefulHandlerOptions {
  transportKind: StreamableTransportKind;
  jsonResponse: boolean;
  /** A store per session for resumable SSE streams; undefined: none. */
  eventStores: EventStoreFactory | undefined;
  sseRetryMs: number | undefined;
  maxBufferedBytes: number | undefined;
  limits: SessionLimits;
  trackPost: TrackPost;
}

const SUPPORTED = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);
/** The version a server assumes for a request without MCP-Protocol-Version (spec 2025-11-25, transports). */
const ASSUMED_VERSION = '2025-03-26';

/**
 * Stateful Streamable HTTP (2025-11-25): `initialize` opens a session (its own SDK `Server`
 * and transport) that later requests name in Mcp-Session-Id, bound to the caller who opened
 * it, within the session limits. `sharing` says where sessions are recorded and found.
 */
export function createStatefulHandler(app: ServerFactory, options: StatefulHandlerOptions, sharing: SessionSharing): ModeHandler & { readonly sessionCount: number } {
  const store = new SessionStore(options.limits, closeSession);
  const local: LocalSessions = {
    touch: (id) => store.touch(id),
    values: () => store.values(),
    start: (record) => startSession(record.id, record.principal, record.protocolVersion, record),
    close: closeSession,
  };
  const stopListening = sharing.listen(local);

  async function closeSession(session: HttpSession, _reason: string): Promise<void> {
    if (session.closed) return;
    session.closed = true;
    store.remove(session.id);
    try {
      await session.server.close();
    } finally {
      await session.eventStore?.close?.();
    }
  }

  async function openSession(auth: AuthInfo | undefined, body: unknown): Promise<HttpSession> {
    // What the SDK's initialize handler answers: the client's version if supported, else the latest.
    const params = firstMessage(body)?.params;
    const requested = params?.protocolVersion;
    const protocolVersion = typeof requested === 'string' && SUPPORTED.has(requested) ? requested : LATEST_PROTOCOL_VERSION;
    const id = randomUUID();
    const principal = principalOf(auth);
    await sharing.create({ id, initialize: (params ?? {}) as Record<string, unknown>, protocolVersion, principal, subscriptions: [] });
    return startSession(id, principal, protocolVersion);
  }

  /** The server and transport of a session: a new one, or the local copy of one opened elsewhere (`record`). */
  async function startSession(id: string, principal: string | undefined, protocolVersion: string, record?: SessionRecord): Promise<HttpSession> {
    const eventStore = options.eventStores?.(id);
    const transport = createStreamableTransport(options.transportKind, {
      sessionId: id,
      jsonResponse: options.jsonResponse,
      eventStore,
      retryMs: options.sseRetryMs,
      maxBufferedBytes: options.maxBufferedBytes,
      ...(sharing.streamIdPrefix !== undefined && { streamIdPrefix: sharing.streamIdPrefix }),
    });
    const server = app.createServer();
    sharing.wire(id, server, transport);
    const session: HttpSession = { id, server, transport, eventStore, principal, protocolVersion, lastSeen: Date.now(), open: 0, closed: false };
    // Runs on DELETE, on eviction/expiry and on shutdown alike.
    transport.onclose = () => void closeSession(session, 'closed');
    await server.connect(transport);
    await sharing.connected(session, record);
    await store.add(session);
    return session;
  }

  async function handle({ req, res, body, auth, entry }: McpRequest): Promise<void> {
    const method = req.method ?? 'GET';
    const version = req.headers['mcp-protocol-version'];
    const sessionId = req.headers['mcp-session-id'];
    let session: HttpSession | undefined;
    if (typeof sessionId === 'string') {
      const found = await sharing.find(sessionId, { method, body, principal: principalOf(auth), res }, local);
      if (!found) return;
      ({ session, body } = found);
      if (!session || session.principal !== principalOf(auth)) {
        return sendRpcError(res, 404, -32001, 'Session not found: it expired, was closed, or belongs to another caller. Start a new session with initialize.');
      }
      // 2025-03-26 is what the spec says a server assumes when the header is missing, so it counts as none (the conformance suite sends it).
      if (typeof version === 'string' && version !== session.protocolVersion && version !== ASSUMED_VERSION) {
        return sendRpcError(
          res,
          400,
          -32000,
          `Bad Request: MCP-Protocol-Version '${version}' differs from the version this session negotiated, '${session.protocolVersion}'. Send '${session.protocolVersion}'.`,
        );
      }
      entry.session = session.id;
    } else if (method === 'POST' && isInitialize(body)) {
      try {
        session = await openSession(auth, body);
      } catch (error) {
        return sharing.refuse(res, error);
      }
      entry.session = session.id;
    } else {
      return sendRpcError(res, 400, -32000, 'Bad Request: the Mcp-Session-Id header is required. Send initialize first and repeat the session id it returns on every request.');
    }

    session.open++;
    const current = session;
    res.once('close', () => {
      current.open--;
      current.lastSeen = Date.now();
    });
    if (method === 'POST') options.trackPost(res);
    await session.transport.handleRequest(req, res, body);
  }

  return {
    handle,
    get sessionCount() {
      return store.size;
    },
    async abandon(reason) {
      await Promise.all([...store.values()].map((s) => s.transport.abandon?.(reason)));
    },
    close() {
      stopListening();
      return store.closeAll('server shutting down');
    },
  };
}
