import type { AuthInfo } from '@toolwright/core';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '../sdk/sdk';
import { createWebStandardTransport, type WebStandardTransport } from '../sdk/createWebStandardTransport';
import type { EventStore, EventStoreFactory } from '../http/EventStore';
import { rpcRefusal, type HttpRefusal } from '../http/HttpRefusal';
import type { InitializeRateLimit } from '../http/InitializeRateLimit';
import { firstMessage, isInitialize } from '../http/jsonRpcShape';
import { principalOf } from '../http/principalOf';
import { SessionLimitError } from '../http/SessionLimitError';
import { sessionOwnerOf } from '../http/sessionOwnerOf';
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

const SUPPORTED = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);
/** The version a server assumes for a request without MCP-Protocol-Version (spec 2025-11-25, transports). */
const ASSUMED_VERSION = '2025-03-26';

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
    if (!store.hasRoomFor(owner)) return full();
    const requested = firstMessage(body)?.params?.protocolVersion;
    const protocolVersion = typeof requested === 'string' && SUPPORTED.has(requested) ? requested : LATEST_PROTOCOL_VERSION;
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
      if (error instanceof SessionLimitError) return full();
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
        if (!found || found.principal !== principalOf(auth)) {
          return jsonAnswer(rpcRefusal(404, -32001, 'Session not found: it expired, was closed, or belongs to another caller. Start a new session with initialize.'));
        }
        session = store.touch(sessionId)!;
        const version = request.headers.get('mcp-protocol-version');
        // 2025-03-26 is what the spec says a server assumes when the header is missing, so it counts as none.
        if (version !== null && version !== session.protocolVersion && version !== ASSUMED_VERSION) {
          return jsonAnswer(
            rpcRefusal(
              400,
              -32000,
              `Bad Request: MCP-Protocol-Version '${version}' differs from the version this session negotiated, '${session.protocolVersion}'. Send '${session.protocolVersion}'.`,
            ),
          );
        }
      } else if (request.method === 'POST' && isInitialize(body)) {
        const owner = sessionOwnerOf(principalOf(auth), options.clientAddressOf?.(request));
        const wait = options.initializeRate?.take(owner) ?? 0;
        if (wait > 0) return jsonAnswer(tooFast(body, wait));
        const opened = await openSession(body, auth, owner);
        if (!('transport' in opened)) return jsonAnswer(opened);
        session = opened;
      } else {
        return jsonAnswer(rpcRefusal(400, -32000, 'Bad Request: the Mcp-Session-Id header is required. Send initialize first and repeat the session id it returns on every request.'));
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

  function full(): HttpRefusal {
    return rpcRefusal(503, -32000, new SessionLimitError(options.limits.maxSessions).message, { 'Retry-After': '30' });
  }
}

/** HTTP 429 for an `initialize` sent faster than `sessions.initializeRate` allows, with the JSON-RPC error for its id. */
function tooFast(body: unknown, waitSeconds: number): HttpRefusal {
  const id = firstMessage(body)?.id;
  return {
    status: 429,
    body: {
      jsonrpc: '2.0',
      id: typeof id === 'string' || typeof id === 'number' ? id : null,
      error: {
        code: -32000,
        message: `Too many requests: this caller opened sessions faster than sessions.initializeRate allows. Retry after ${waitSeconds} s, or reuse the session you have.`,
        data: { retryAfterSeconds: waitSeconds },
      },
    },
    headers: { 'Retry-After': String(waitSeconds) },
  };
}
