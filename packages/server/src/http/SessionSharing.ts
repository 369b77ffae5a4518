import type { ServerResponse } from 'node:http';
import type { McpServerHandle } from '../serving/ServerFactory';
import type { SessionRecord } from './Cluster';
import type { StreamableTransport } from './createStreamableTransport';
import type { HttpSession } from './HttpSession';

/** The sessions this instance holds, as the stateful handler lends them to a `SessionSharing`. */
export interface LocalSessions {
  /** The local session (or copy) with this id, not marked as used. */
  get(id: string): HttpSession | undefined;
  /** The local session (or copy) with this id, marked as just used: only once the caller is known to own it. */
  touch(id: string): HttpSession | undefined;
  values(): Iterable<HttpSession>;
  /** Starts a local copy of a session opened elsewhere, from its record. */
  start(record: SessionRecord): Promise<HttpSession>;
  close(session: HttpSession, reason: string): Promise<void>;
}

/** A request naming a session, as `SessionSharing.find` sees it. */
export interface SessionRequest {
  readonly method: string;
  readonly body: unknown;
  readonly principal: string | undefined;
  readonly res: ServerResponse;
}

/**
 * What the stateful handler's sessions share with the other instances of a cluster
 * (`shareThroughCluster`), or with none (`singleInstance`): where a session is recorded and
 * found, and what its server and transport need to be served from any instance.
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
  /**
   * The local session a request names (undefined if unknown, expired, ended or another
   * caller's) and the part of its body left for it; undefined once the request has been
   * answered here. The session is marked as used only when the request's principal owns it.
   */
  find(id: string, request: SessionRequest, local: LocalSessions): Promise<{ session: HttpSession | undefined; body: unknown } | undefined>;
  /** Wires a session's new server and transport, before they connect. */
  wire(id: string, server: McpServerHandle, transport: StreamableTransport): void;
  /** Finishes a session's start once connected; `record` when it is a copy of one opened elsewhere. */
  connected(session: HttpSession, record: SessionRecord | undefined): Promise<void>;
  /** Answers a request whose session could not be opened (or rethrows). */
  refuse(res: ServerResponse, error: unknown): void;
}
