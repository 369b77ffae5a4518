import type { AuthInfo } from '@toolwright/core';
import { createWebStandardTransport, type WebStandardTransport } from '../sdk/createWebStandardTransport';
import type { EventStore, EventStoreFactory } from '../http/EventStore';
import type { HttpRefusal } from '../http/HttpRefusal';
import type { InitializeRateLimit } from '../http/InitializeRateLimit';
import { isInitialize } from '../http/jsonRpcShape';
import { principalOf } from '../http/principalOf';
import { SessionLimitError } from '../http/SessionLimitError';
import { sessionOwnerOf } from '../http/sessionOwnerOf';
import { sessionRules } from '../http/sessionRules';
import { SessionStore, type SessionLimits, type StoredSession } from '../http/SessionStore';
import type { McpServerHandle, ServerFactory } from '../serving/ServerFactory';
import type { FetchMode } from './FetchMode';
import { jsonAnswer } from './jsonAnswer';
import { whenBodyEnds } from './whenBodyEnds';

export interface FetchSessionsOptions {
  jsonResponse: boolean;
  eventStores: EventStoreFactory | undefined;
  sseRetryMs: number | undefined;
  limits: SessionLimits;
  initializeRate: InitializeRateLimit | undefined;
  clientAddressOf: ((request: Request) => string | undefined) | undefined;
}

/** One 2025-era session of the fetch handler: its own server and web-standard transport. */
interface FetchSession extends StoredSession {
  readonly server: McpServerHandle;
  readonly transport: WebStandardTransport;
  readonly eventStore: EventStore | undefined;
  /** Who opened it (see `principalOf`); undefined for anonymous sessions. */
  readonly principal: string | undefined;
  readonly protocolVersion: string;
  closed: boolean;
}

/**
 * Stateful Streamable HTTP (2025-11-25) over `Request`/`Response`, with the node listener's
 * session rules: `initialize` opens a session that later requests name in Mcp-Session-Id,
 * bound to the caller who opened it (another caller gets 404, as for an unknown session), in
 * the same `SessionStore` (each owner's share, the total, the idle sweep) and `initialize`
 * rate. Sessions live in this isolate's memory.
 */
export function createFetchSessions(app: ServerFactory, options: FetchSessionsOptions): FetchMode {
  const store = new SessionStore<FetchSession>({ ...options.limits, whenFull: 'refuse' }, closeSession);

  async function closeSession(session: FetchSession): Promise<void> {
    if (session.closed) return;
    session.closed = true;
    store.remove(session.id);
    try {
      await session.server.close();
    } finally {
      await session.eventStore?.close?.();
    }
  }

  async function openSession(body: unknown, auth: AuthInfo | undefined, owner: string): Promise<FetchSession | HttpRefusal> {
    if (!store.hasRoomFor(owner)) return sessionRules.full(new SessionLimitError(options.limits.maxSessions));
    const protocolVersion = sessionRules.negotiatedVersion(body);
    const id = crypto.randomUUID();
    const eventStore = options.eventStores?.(id);
    const transport = createWebStandardTransport({ sessionId: id, jsonResponse: options.jsonResponse, eventStore, retryMs: options.sseRetryMs });
    const server = app.createServer();
    const session: FetchSession = { id, server, transport, eventStore, principal: principalOf(auth), owner, protocolVersion, lastSeen: Date.now(), open: 0, closed: false };
    // Runs on DELETE, on eviction or expiry and on shutdown alike.
    transport.onclose = () => void closeSession(session);
    await server.connect(transport);
    try {
      await store.add(session);
    } catch (error) {
      session.closed = true;
      await server.close().finally(() => eventStore?.close?.());
      if (error instanceof SessionLimitError) return sessionRules.full(error);
      throw error;
    }
    return session;
  }

  return {
    async handle(request, body, auth) {
      const sessionId = request.headers.get('mcp-session-id');
      let session: FetchSession | undefined;
      if (sessionId !== null) {
        const found = store.get(sessionId);
        // Only its owner may use (or keep alive) a session: to anyone else it does not exist.
        if (!found || found.principal !== principalOf(auth)) return jsonAnswer(sessionRules.notFound);
        session = store.touch(sessionId)!;
        const mismatch = sessionRules.version(request.headers.get('mcp-protocol-version') ?? undefined, session.protocolVersion);
        if (mismatch) return jsonAnswer(mismatch);
      } else if (request.method === 'POST' && isInitialize(body)) {
        const owner = sessionOwnerOf(principalOf(auth), options.clientAddressOf?.(request));
        const wait = options.initializeRate?.take(owner) ?? 0;
        if (wait > 0) return jsonAnswer(sessionRules.tooFast(body, wait));
        const opened = await openSession(body, auth, owner);
        if (!('transport' in opened)) return jsonAnswer(opened);
        session = opened;
      } else {
        return jsonAnswer(sessionRules.required);
      }

      const current = session;
      current.open++;
      let response: Response;
      try {
        response = await current.transport.handleRequest(request, { parsedBody: body, ...(auth && { authInfo: auth }) });
      } catch (error) {
        current.open--;
        throw error;
      }
      return whenBodyEnds(response, () => {
        current.open--;
        current.lastSeen = Date.now();
      });
    },
    get sessionCount() {
      return store.size;
    },
    close: () => store.closeAll('server shutting down'),
  };
}
