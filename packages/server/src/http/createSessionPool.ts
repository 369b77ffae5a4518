import type { AuthInfo } from '@toolwright/core';
import { malformedAnswersOf } from '../rpc/malformedAnswer';
import type { JSONRPCMessage } from '../sdk/sdk';
import type { McpServerHandle, ServerFactory } from '../serving/ServerFactory';
import type { SessionRecord } from './Cluster';
import type { EventStore, EventStoreFactory } from './EventStore';
import type { HttpRefusal } from './HttpRefusal';
import type { HttpSession, SessionTransport } from './HttpSession';
import type { InitializeRateLimit } from './InitializeRateLimit';
import { firstMessage, isInitialize } from './jsonRpcShape';
import { principalOf } from './principalOf';
import { SessionLimitError } from './SessionLimitError';
import { sessionOwnerOf } from './sessionOwnerOf';
import { sessionRules } from './sessionRules';
import type { LocalSessions, SessionSharing } from './SessionSharing';
import { SessionStore, type SessionLimits } from './SessionStore';

export interface SessionPoolOptions<T extends SessionTransport> {
  limits: SessionLimits;
  /** The `initialize` rate per owner; undefined: none. */
  initializeRate: InitializeRateLimit | undefined;
  /** A store per session for resumable SSE streams; undefined: none. */
  eventStores: EventStoreFactory | undefined;
  /** The transport of a new session (or of the local copy of one opened elsewhere). */
  createTransport(sessionId: string, eventStore: EventStore | undefined, streamIdPrefix: string | undefined): T;
}

/** What the pool needs of a 2025-era request to the endpoint, whichever runtime it came through. */
export interface SessionCall {
  readonly method: string;
  /** The parsed POST body; undefined for GET and DELETE. */
  readonly body: unknown;
  readonly auth: AuthInfo | undefined;
  /** Its Mcp-Session-Id header, if any. */
  readonly sessionId: string | undefined;
  /** Its MCP-Protocol-Version header, if any. */
  readonly protocolVersion: string | undefined;
  /** The client address an anonymous caller is counted by; asked only when the request opens a session. */
  clientAddress(): string | undefined;
}

/** The session a request is served in (with the part of its body left for it), or the answer it gets instead. */
export type SessionOutcome<T extends SessionTransport> = { readonly session: HttpSession<T>; readonly body: unknown } | { readonly answer: HttpRefusal };

/**
 * How long a request of a shared session is open before it renews the session (see
 * `SessionPool.begin`): a transport refuses a request at once, so one still open by then was accepted.
 */
const EARLY_RENEWAL_MS = 100;

/** The 2025-era sessions of one endpoint: the node listener's and the fetch handler's alike. */
export interface SessionPool<T extends SessionTransport> {
  /**
   * The session a request names (its owner's only, at the version it negotiated), or the new
   * one its `initialize` opens within the limits and the `initialize` rate; else the answer:
   * 404 (unknown, expired or another caller's), 400 (no session id, version mismatch), 429,
   * 503 (full, or the shared store unreachable).
   */
  resolve(call: SessionCall): Promise<SessionOutcome<T>>;
  /**
   * Ends the questions (elicitation, sampling, roots) that the malformed answers of a POST refused
   * as invalid answer (see `malformedAnswer`): each goes to the session the POST names, if its
   * caller owns it, as the error that says what was wrong, so the question fails now instead of
   * waiting for its timeout. An answer to no open question of that session changes nothing.
   */
  failQuestions(call: SessionCall): Promise<void>;
  /**
   * Counts an HTTP request (or SSE stream) of the session as open, so no idle sweep closes it;
   * returns the function that ends it (once), given the HTTP status the request was answered
   * with. Only a request its transport accepted (2xx, 3xx) used the session: that one marks it
   * as just used, here and where it is shared (`SessionSharing.used`); a refused one (4xx, 5xx)
   * leaves its idle time as it was. Where the session is shared, a request still open after
   * `EARLY_RENEWAL_MS` (a tool call streaming its answer, a GET stream) marks it then too, so that
   * a long request begun just before the shared record's expiry does not outlive it.
   */
  begin(session: HttpSession<T>): (status: number) => void;
  readonly size: number;
  values(): Iterable<HttpSession<T>>;
  /** Stops hearing from other instances and closes every session. */
  close(): Promise<void>;
}

/**
 * The sessions of an endpoint, whatever answers its HTTP: one `SessionStore` (each owner's
 * share, the total, the idle sweep), the session rules, and `sharing`, which says where sessions
 * are recorded and found (this instance alone, or a cluster). The runtime's side only hands the
 * request to `session.transport`.
 */
export function createSessionPool<T extends SessionTransport>(app: ServerFactory, options: SessionPoolOptions<T>, sharing: SessionSharing): SessionPool<T> {
  // Copies of sessions kept in a cluster are a cache: the cluster holds each owner to its share, and a full store drops its longest-idle copy.
  const copies = sharing.localStore === 'copies';
  const store = new SessionStore<HttpSession<T>>(
    copies ? { ...options.limits, maxSessionsPerPrincipal: Number.POSITIVE_INFINITY, whenFull: 'evict' } : { ...options.limits, whenFull: 'refuse' },
    closeSession,
  );
  const local: LocalSessions = {
    get: (id) => store.get(id),
    touch: (id) => store.touch(id),
    values: () => store.values(),
    start: (record) => startSession(record.id, record.principal, record.owner ?? sessionOwnerOf(record.principal, undefined), record.protocolVersion, record),
    close: (session, reason) => closeSession(session as HttpSession<T>, reason),
  };
  const stopListening = sharing.listen(local);

  async function closeSession(session: HttpSession<T>, _reason: string): Promise<void> {
    if (session.closed) return;
    session.closed = true;
    store.remove(session.id);
    try {
      await session.server.close();
    } finally {
      await session.eventStore?.close?.();
    }
  }

  /**
   * A new session, or the answer when the shared store could not record it (`sharing.refuse`).
   * The server is made first: an app that may not serve (see `servingRefusal`) throws its
   * `ConfigError` before the store records a session it would never serve, and that error goes
   * on to the endpoint's generic 500 (logged), as every error but the store's does.
   */
  async function openSession(body: unknown, principal: string | undefined, owner: string): Promise<SessionOutcome<T>> {
    if (!copies && !store.hasRoomFor(owner)) throw new SessionLimitError(options.limits.maxSessions);
    const server = app.createServer();
    const protocolVersion = sessionRules.negotiatedVersion(body);
    const id = crypto.randomUUID();
    const params = firstMessage(body)?.params;
    let created: boolean;
    try {
      created = await sharing.create({ id, initialize: (params ?? {}) as Record<string, unknown>, protocolVersion, principal, owner, subscriptions: [] });
    } catch (error) {
      await closeUnserved(server);
      return { answer: sharing.refuse(error) };
    }
    if (!created) {
      await closeUnserved(server);
      throw new SessionLimitError(options.limits.maxSessions);
    }
    try {
      return { session: await startSession(id, principal, owner, protocolVersion, undefined, server), body };
    } catch (error) {
      // Recorded, and never served: the record goes too, instead of holding a place until it expires. A failure to delete it is not the client's answer.
      await sharing.discard(id).catch(() => undefined);
      throw error;
    }
  }

  /** The server and transport of a session: a new one (with its `server` made already), or the local copy of one opened elsewhere (`record`). */
  async function startSession(id: string, principal: string | undefined, owner: string, protocolVersion: string, record?: SessionRecord, server = app.createServer()): Promise<HttpSession<T>> {
    let eventStore: EventStore | undefined;
    let session: HttpSession<T> | undefined;
    try {
      eventStore = options.eventStores?.(id);
      const transport = options.createTransport(id, eventStore, sharing.streamIdPrefix);
      sharing.wire(id, server, transport);
      const started: HttpSession<T> = { id, server, transport, eventStore, principal, owner, protocolVersion, lastSeen: Date.now(), open: 0, closed: false };
      session = started;
      // Runs on DELETE, on eviction or expiry and on shutdown alike.
      transport.onclose = () => void closeSession(started, 'closed');
      await server.connect(transport);
      await sharing.connected(started, record);
      await store.add(started);
      return started;
    } catch (error) {
      // Never served: its server leaves the app's live connections (a connected one would hear every list change).
      if (session) session.closed = true;
      const events = eventStore;
      await closeUnserved(server).finally(() => events?.close?.());
      throw error;
    }
  }

  /** Closes the server of a session that is not served after all; a failure to close it is not the client's answer. */
  async function closeUnserved(server: McpServerHandle): Promise<void> {
    await server.close().catch(() => undefined);
  }

  async function resolve(call: SessionCall): Promise<SessionOutcome<T>> {
    const principal = principalOf(call.auth);
    if (call.sessionId !== undefined) {
      const found = await sharing.find(call.sessionId, { method: call.method, body: call.body, principal, protocolVersion: call.protocolVersion }, local);
      if ('answer' in found) return found;
      // Not marked as used yet: `begin` does that once the transport accepted the request (a foreign caller, a refusal keep no session alive).
      const session = found.session as HttpSession<T> | undefined;
      if (!session || session.principal !== principal) return { answer: sessionRules.notFound };
      const mismatch = sessionRules.version(call.protocolVersion, session.protocolVersion);
      if (mismatch) return { answer: mismatch };
      return { session, body: found.body };
    }
    if (call.method !== 'POST' || !isInitialize(call.body)) return { answer: sessionRules.required };
    const owner = sessionOwnerOf(principal, call.clientAddress());
    const wait = options.initializeRate?.take(owner) ?? 0;
    if (wait > 0) return { answer: sessionRules.tooFast(call.body, wait) };
    try {
      return await openSession(call.body, principal, owner);
    } catch (error) {
      if (error instanceof SessionLimitError) return { answer: sessionRules.full(error) };
      throw error;
    }
  }

  return {
    resolve,
    async failQuestions(call) {
      const answers = malformedAnswersOf(call.body);
      if (answers.length === 0 || call.sessionId === undefined) return;
      // Resolved as a POST of these answers: the owner and version checks apply, and a cluster relays those meant for another instance.
      const outcome = await resolve({ ...call, body: answers });
      if ('answer' in outcome) return;
      for (const answer of outcome.body as JSONRPCMessage[]) outcome.session.transport.onmessage?.(answer);
    },
    begin(session) {
      session.open++;
      const early = copies ? setTimeout(() => void (session.closed || sharing.used(session, local)), EARLY_RENEWAL_MS) : undefined;
      (early as { unref?: () => void } | undefined)?.unref?.();
      let ended = false;
      return (status) => {
        if (ended) return;
        ended = true;
        clearTimeout(early);
        session.open--;
        if (status >= 400) return;
        store.touch(session.id);
        sharing.used(session, local);
      };
    },
    get size() {
      return store.size;
    },
    values: () => store.values(),
    close() {
      stopListening();
      return store.closeAll('server shutting down');
    },
  };
}
