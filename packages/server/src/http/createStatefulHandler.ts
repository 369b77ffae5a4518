import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@toolwright/core';
import type { ServerFactory } from '../serving/ServerFactory';
import type { SessionRecord } from './Cluster';
import { createStreamableTransport, type StreamableTransportKind } from './createStreamableTransport';
import type { EventStoreFactory } from './EventStore';
import type { HttpSession } from './HttpSession';
import { firstMessage, isInitialize } from './jsonRpcShape';
import type { HttpRefusal } from './HttpRefusal';
import type { McpRequest, ModeHandler, TrackPost } from './ModeHandler';
import type { InitializeRateLimit } from './InitializeRateLimit';
import { principalOf } from './principalOf';
import { sendJson } from './respond';
import { SessionLimitError } from './SessionLimitError';
import { sessionOwnerOf } from './sessionOwnerOf';
import { sessionRules } from './sessionRules';
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
  /** The `initialize` rate per owner; undefined: none. */
  initializeRate: InitializeRateLimit | undefined;
  /** The client address an anonymous caller's sessions and initialize rate are counted by. */
  clientAddressOf: ((req: IncomingMessage) => string | undefined) | undefined;
  trackPost: TrackPost;
}

/**
 * Stateful Streamable HTTP (2025-11-25): `initialize` opens a session (its own SDK `Server`
 * and transport) that later requests name in Mcp-Session-Id, bound to the caller who opened
 * it, within the session limits. `sharing` says where sessions are recorded and found.
 */
export function createStatefulHandler(app: ServerFactory, options: StatefulHandlerOptions, sharing: SessionSharing): ModeHandler & { readonly sessionCount: number } {
  // Copies of sessions kept in a cluster are a cache: the cluster holds each owner to its share, and a full store drops its longest-idle copy.
  const copies = sharing.localStore === 'copies';
  const store = new SessionStore(copies ? { ...options.limits, maxSessionsPerPrincipal: Number.POSITIVE_INFINITY, whenFull: 'evict' } : { ...options.limits, whenFull: 'refuse' }, closeSession);
  const local: LocalSessions = {
    get: (id) => store.get(id),
    touch: (id) => store.touch(id),
    values: () => store.values(),
    start: (record) => startSession(record.id, record.principal, record.owner ?? sessionOwnerOf(record.principal, undefined), record.protocolVersion, record),
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

  async function openSession(auth: AuthInfo | undefined, body: unknown, owner: string): Promise<HttpSession> {
    const params = firstMessage(body)?.params;
    const protocolVersion = sessionRules.negotiatedVersion(body);
    const id = randomUUID();
    const principal = principalOf(auth);
    if (!copies && !store.hasRoomFor(owner)) throw new SessionLimitError(options.limits.maxSessions);
    const created = await sharing.create({ id, initialize: (params ?? {}) as Record<string, unknown>, protocolVersion, principal, owner, subscriptions: [] });
    if (!created) throw new SessionLimitError(options.limits.maxSessions);
    return startSession(id, principal, owner, protocolVersion);
  }

  /** The server and transport of a session: a new one, or the local copy of one opened elsewhere (`record`). */
  async function startSession(id: string, principal: string | undefined, owner: string, protocolVersion: string, record?: SessionRecord): Promise<HttpSession> {
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
    const session: HttpSession = { id, server, transport, eventStore, principal, owner, protocolVersion, lastSeen: Date.now(), open: 0, closed: false };
    // Runs on DELETE, on eviction/expiry and on shutdown alike.
    transport.onclose = () => void closeSession(session, 'closed');
    await server.connect(transport);
    await sharing.connected(session, record);
    try {
      await store.add(session);
    } catch (error) {
      session.closed = true;
      await server.close().finally(() => eventStore?.close?.());
      throw error;
    }
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
      // `find` touched the session only if this caller owns it: a foreign caller keeps no session alive.
      if (!session || session.principal !== principalOf(auth)) return send(res, sessionRules.notFound);
      const mismatch = sessionRules.version(typeof version === 'string' ? version : undefined, session.protocolVersion);
      if (mismatch) return send(res, mismatch);
      entry.session = session.id;
    } else if (method === 'POST' && isInitialize(body)) {
      const owner = sessionOwnerOf(principalOf(auth), (options.clientAddressOf ?? remoteAddressOf)(req));
      const wait = options.initializeRate?.take(owner) ?? 0;
      if (wait > 0) return send(res, sessionRules.tooFast(body, wait));
      try {
        session = await openSession(auth, body, owner);
      } catch (error) {
        if (error instanceof SessionLimitError) return send(res, sessionRules.full(error));
        return sharing.refuse(res, error);
      }
      entry.session = session.id;
    } else {
      return send(res, sessionRules.required);
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

const remoteAddressOf = (req: IncomingMessage): string | undefined => req.socket?.remoteAddress;

function send(res: McpRequest['res'], answer: HttpRefusal): void {
  sendJson(res, answer.status, answer.body, answer.headers as Record<string, string> | undefined);
}
