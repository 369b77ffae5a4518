import type { McpServerHandle } from '../serving/ServerFactory';
import type { StreamableTransport } from './createStreamableTransport';
import type { EventStore } from './EventStore';

/** One stateful Streamable HTTP session: its own server and transport. */
export interface HttpSession {
  readonly id: string;
  readonly server: McpServerHandle;
  readonly transport: StreamableTransport;
  readonly eventStore: EventStore | undefined;
  /** Who opened it (see `principalOf`); undefined for anonymous sessions. */
  readonly principal: string | undefined;
  /** Whose share of sessions it counts against (`sessions.maxSessionsPerPrincipal`): the principal, or the client address of an anonymous caller. */
  readonly owner: string;
  /** The protocol version initialize negotiated: requests must send it as MCP-Protocol-Version, if they send one. */
  readonly protocolVersion: string;
  /** When its last request started (ms since epoch). */
  lastSeen: number;
  /** HTTP requests of this session still open (an SSE GET stream counts while it lasts). */
  open: number;
  closed: boolean;
}
