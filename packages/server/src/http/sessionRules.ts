import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '../sdk/sdk';
import { rpcRefusal, type HttpRefusal } from './HttpRefusal';
import { firstMessage } from './jsonRpcShape';
import { SessionLimitError } from './SessionLimitError';

const SUPPORTED = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);
/** The version a server assumes for a request without MCP-Protocol-Version (spec 2025-11-25, transports). */
const ASSUMED_VERSION = '2025-03-26';
/** Priming events (and SSE polling) exist from this revision on; dates compare as strings. */
const PRIMING_SINCE = '2025-11-25';

/** The answers about 2025-era sessions that the node listener and the fetch handler give alike. */
export const sessionRules = {
  /** An unknown session, or one of another caller (to whom it does not exist). */
  notFound: rpcRefusal(404, -32001, 'Session not found: it expired, was closed, or belongs to another caller. Start a new session with initialize.'),
  /** A request of a session closed (DELETE, expiry, shutdown) while it ran, answered with JSON. */
  closedBeforeAnswer: rpcRefusal(404, -32001, 'Session not found: the session was closed before this request was answered. Start a new session with initialize.'),
  /** A GET whose Last-Event-ID names no event the session's event store holds (expired, or never sent): nothing to resume, so the client sends its request again. */
  unknownEventId: rpcRefusal(400, -32000, 'Bad Request: the Last-Event-ID header names no event of this session (expired, or never sent). Send the request again.'),
  /** A request other than initialize without Mcp-Session-Id. */
  required: rpcRefusal(400, -32000, 'Bad Request: the Mcp-Session-Id header is required. Send initialize first and repeat the session id it returns on every request.'),

  /** The version `initialize` negotiates, as the SDK answers it: the client's if supported, else the latest. */
  negotiatedVersion(body: unknown): string {
    const requested = firstMessage(body)?.params?.protocolVersion;
    return typeof requested === 'string' && SUPPORTED.has(requested) ? requested : LATEST_PROTOCOL_VERSION;
  },

  /** A request whose MCP-Protocol-Version is not the one its session negotiated (2025-03-26, the assumed default, counts as none: the conformance suite sends it). */
  version(header: string | undefined, negotiated: string): HttpRefusal | undefined {
    if (header === undefined || header === negotiated || header === ASSUMED_VERSION) return undefined;
    return rpcRefusal(400, -32000, `Bad Request: the MCP-Protocol-Version header differs from the version this session negotiated, '${negotiated}'. Send '${negotiated}'.`);
  },

  /**
   * Whether a POST's SSE stream, where an event store keeps its events, opens with a priming
   * event (an event id and empty data, the client's first `Last-Event-ID`) and gives its
   * handlers `closeSSEStream`. `version` is the one the POST speaks: an `initialize`'s
   * protocolVersion, else its MCP-Protocol-Version header (2025-03-26 when absent). As the
   * SDK's transport decides it: a version this server supports, from 2025-11-25 on; an unknown
   * one in an initialize body does not count, however late its date.
   */
  primes(version: string): boolean {
    return SUPPORTED.has(version) && version >= PRIMING_SINCE;
  },

  /** The event store failed to keep a POST stream's priming event: nothing reached the server yet, so the client may send the request again. */
  primingFailed(why: string): HttpRefusal {
    return rpcRefusal(503, -32000, `Service unavailable: the event store failed to store this stream's first event (${why}). Retry shortly.`, { 'Retry-After': '1' });
  },

  /** The event store could not claim the GET stream across the cluster (see `EventStore.claim`): nothing was opened; the client may try again. */
  claimFailed(why: string): HttpRefusal {
    return rpcRefusal(503, -32000, `Service unavailable: the event store could not claim this session's GET stream (${why}). Retry shortly.`, { 'Retry-After': '1' });
  },

  /** No room for one more session (`sessions.maxSessions`): 503, no open session is closed. */
  full(error: SessionLimitError): HttpRefusal {
    return rpcRefusal(503, -32000, error.message, { 'Retry-After': '30' });
  },

  /** HTTP 429 for an `initialize` sent faster than `sessions.initializeRate` allows, with the JSON-RPC error for its id. */
  tooFast(body: unknown, waitSeconds: number): HttpRefusal {
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
  },
};
