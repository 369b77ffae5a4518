import type { McpServerHandle } from '../serving/ServerFactory';
import type { SessionRecord } from './Cluster';
import type { HttpRefusal } from './HttpRefusal';
import type { HttpSession, SessionTransport } from './HttpSession';

/** A session as `SessionSharing` sees it, whichever runtime's transport serves it. */
export type SharedSession = HttpSession<SessionTransport>;

/** The sessions this instance holds, as the session pool lends them to a `SessionSharing`. */
export interface LocalSessions {
  /** The local session (or copy) with this id, not marked as used. */
  get(id: string): SharedSession | undefined;
  /** The local session (or copy) with this id, marked as just used: only once the caller is known to own it. */
  touch(id: string): SharedSession | undefined;
  values(): Iterable<SharedSession>;
  /** Starts a local copy of a session opened elsewhere, from its record. */
  start(record: SessionRecord): Promise<SharedSession>;
  close(session: SharedSession, reason: string): Promise<void>;
}

/** A request naming a session, as `SessionSharing.find` sees it. */
export interface SessionRequest {
  readonly method: string;
  readonly body: unknown;
  readonly principal: string | undefined;
  /** Its MCP-Protocol-Version header, if any: a cluster refuses one its session did not negotiate before acting on the request. */
  readonly protocolVersion: string | undefined;
}

/**
 * What a request naming a session comes to: the local session (undefined if unknown, expired,
 * ended or another caller's) and the part of its body left for it; or an answer decided
 * without it (the shared store is unreachable: 503; only answers for other instances: 202;
 * a cluster's refusal of a version the session did not negotiate: 400).
 */
export type SessionFound = { readonly session: SharedSession | undefined; readonly body: unknown } | { readonly answer: HttpRefusal };

/**
 * What the sessions of an endpoint (the node listener's or the fetch handler's) share with the
 * other instances of a cluster (`shareThroughCluster`), or with none (`singleInstance`): where a
 * session is recorded and found, and what its server and transport need to be served from any
 * instance. Nothing here touches a runtime's request or response: answers are `HttpRefusal`s.
 */
export interface SessionSharing {
  /**
   * What the local store holds: the sessions themselves (`'truth'`: it enforces every
   * limit and refuses a session when full), or copies of sessions kept elsewhere
   * (`'copies'`: the cluster enforces the limits; a full local store drops its longest-idle copy).
   */
  readonly localStore: 'truth' | 'copies';
  /** Starts every POST stream id of this instance's transports, so no two instances use the same one. */
  readonly streamIdPrefix: string | undefined;
  /** Starts hearing of what other instances do to the sessions held here; returns the function that stops it. */
  listen(local: LocalSessions): () => void;
  /** Records a session being opened, before it starts here; false when there is no room for it (`maxSessions`). */
  create(record: SessionRecord): Promise<boolean>;
  /** Deletes the record `create` wrote for a session that then failed to start here, as ending it would: it holds no place and no instance finds it. */
  discard(id: string): Promise<void>;
  /** The local session a request names; if it is marked as used here, only when the request's principal owns it (the session pool marks it once its transport accepted the request). */
  find(id: string, request: SessionRequest, local: LocalSessions): Promise<SessionFound>;
  /**
   * Marks a session as used by a request its transport accepted (answered below 400), as the
   * session pool marks its local copy: a cluster pushes the shared record's expiry back, in
   * the background (the response does not wait for it). A refused request calls nothing.
   */
  used(session: SharedSession, local: LocalSessions): void;
  /** Wires a session's new server and transport, before they connect. */
  wire(id: string, server: McpServerHandle, transport: SessionTransport): void;
  /** Finishes a session's start once connected; `record` when it is a copy of one opened elsewhere. */
  connected(session: SharedSession, record: SessionRecord | undefined): Promise<void>;
  /** The answer to an `initialize` whose session `create` failed to record (it threw: the store is unreachable), or rethrows. Only the store's errors come here. */
  refuse(error: unknown): HttpRefusal;
}
