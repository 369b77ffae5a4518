import type { McpServerHandle } from '../serving/ServerFactory';
import type { JSONRPCMessage, Transport } from '../sdk/sdk';
import type { StreamableTransport } from './createStreamableTransport';
import type { EventStore } from './EventStore';
import type { StoredSession } from './SessionStore';

/** A request that brings a fresh server to a session's state (see `SessionTransport.restore`). */
export interface RestoreRequest {
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/**
 * What a 2025-era session needs of its transport, whichever runtime it answers: node's
 * `(req, res)` (`NodeStreamableTransport`) or web `Request`/`Response`. A cluster
 * (`shareThroughCluster`) needs `restore` and `deliver` too.
 */
export interface SessionTransport extends Transport {
  /**
   * Brings the server of a session opened on another instance to that session's state: hands
   * it `requests` (its initialize, then what the client changed since) as if the client had
   * sent them, and drops the answers.
   */
  restore?(requests: readonly RestoreRequest[]): Promise<void>;
  /** A message of this session's client that reached another instance (an answer, a cancellation), handled as if posted here. */
  deliver?(message: JSONRPCMessage): void;
  /** Answers the requests still open with an error, on shutdown. */
  abandon?(reason: string): Promise<void>;
}

/** One stateful Streamable HTTP session: its own server and transport (the node listener's by default). */
export interface HttpSession<T extends SessionTransport = StreamableTransport> extends StoredSession {
  readonly id: string;
  readonly server: McpServerHandle;
  readonly transport: T;
  readonly eventStore: EventStore | undefined;
  /** Who opened it (see `principalOf`); undefined for anonymous sessions. */
  readonly principal: string | undefined;
  /** Whose share of sessions it counts against (`sessions.maxSessionsPerPrincipal`): the principal, or the client address of an anonymous caller. */
  readonly owner: string;
  /** The protocol version initialize negotiated: requests must send it as MCP-Protocol-Version, if they send one. */
  readonly protocolVersion: string;
  /** When it opened, or when its last request the transport accepted ended (ms since epoch): refused requests leave it. */
  lastSeen: number;
  /** HTTP requests of this session still open (an SSE GET stream counts while it lasts). */
  open: number;
  closed: boolean;
}
