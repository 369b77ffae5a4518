import type { SessionState } from '@toolwright/core';
import type { UsedStateStore } from '../roundtrip/RequestStateCodec';
import type { EventStoreFactory } from './EventStore';

/**
 * The cluster integration constant: the stream id under which a session's GET stream
 * (server-initiated messages) is stored in its `EventStore`. A `Cluster` implementation needs
 * it: `watch` is asked for this stream only, and messages fanned out to a session's clients
 * are stored under it (`@toolwright/redis` uses it so).
 */
export const GET_STREAM_ID = 'standalone';

/**
 * What any instance needs to serve a 2025-era session it did not open: the client's
 * `initialize` (replayed into a fresh server there), who opened it, and what the client
 * changed since (log level, subscriptions).
 */
export interface SessionRecord {
  readonly id: string;
  /** The params of the session's `initialize` request, as the client sent them. */
  readonly initialize: Record<string, unknown>;
  /** The version initialize negotiated. */
  readonly protocolVersion: string;
  /** Who opened it (see `principalOf`); undefined for anonymous sessions. */
  readonly principal: string | undefined;
  /**
   * Whose share of sessions it counts against (`sessions.maxSessionsPerPrincipal`): the
   * principal, or the client address of an anonymous caller. Given to `create`; a store may
   * leave it out of what `peek` and `touch` return.
   */
  readonly owner?: string;
  /** The client's last `logging/setLevel`, if any. */
  readonly logLevel?: string;
  /**
   * URIs the client subscribed to (`resources/subscribe`), as given to `create` (none). The
   * store keeps the live set for `publish`; `peek` and `touch` need not return it.
   */
  readonly subscriptions?: readonly string[];
}

/** A change the client made to its session, recorded for every instance. */
export type SessionChange = { readonly logLevel: string } | { readonly subscribe: string } | { readonly unsubscribe: string };

/**
 * The sessions of every instance behind a load balancer, in a shared store (Redis: see
 * `@toolwright/redis`). Each instance keeps a local copy (a server and transport) of the
 * sessions it served; the record here is the truth. Every method may reject when the store
 * is unreachable: the request then gets 503 and nothing is half written.
 */
export interface SharedSessions {
  /**
   * Stores a new session that expires after `idleTimeoutMs` without a request. If its
   * owner (`record.owner`) already holds `maxSessionsPerPrincipal`, the owner's least
   * recently used ones are ended first (their instances are told through `onEnded`); never
   * another owner's. Resolves false, storing nothing, when the cluster holds `maxSessions`.
   */
  create(record: SessionRecord, limits: { readonly idleTimeoutMs: number; readonly maxSessions: number; readonly maxSessionsPerPrincipal: number }): Promise<boolean>;
  /**
   * The session if `principal` opened it, as `touch` returns it, but with its expiry left as
   * it was; undefined if it is unknown, expired, ended or another principal's. A request is
   * checked against it before it is served: only a request the session then accepts renews it
   * (`touch`), so a refused one (status 400 or above) keeps no session alive. Required: a
   * `cluster` whose sessions lack it is refused at startup with a ConfigError saying to add it.
   */
  peek(id: string, principal: string | undefined): Promise<SessionRecord | undefined>;
  /**
   * The session, its expiry pushed back by `idleTimeoutMs`, if `principal` opened it;
   * undefined if it is unknown, expired, ended or another principal's (whose request then
   * keeps nothing alive: the check comes first). Called once a request of the session was
   * accepted (not awaited by the request), and while a request or stream of it is open.
   */
  touch(id: string, idleTimeoutMs: number, principal: string | undefined): Promise<SessionRecord | undefined>;
  /**
   * Records a change the client made, once the session's server accepted it (before the
   * client hears so). Rejects when the store refuses it (a subscription past its caps).
   */
  update(id: string, change: SessionChange): Promise<void>;
  /** Ends it on every instance (DELETE). */
  end(id: string): Promise<void>;
  /** Calls `listener` with each session ended elsewhere (DELETE, eviction); returns the function that stops it. */
  onEnded(listener: (id: string) => void): () => void;
}

/** A list change or resource update, as it travels between instances. */
export type ClusterChange = { readonly list: 'tools' | 'resources' | 'prompts' } | { readonly resourceUpdated: string };

/**
 * Everything the instances of one app share, for `HttpHandlerOptions.cluster`. With it,
 * any instance serves any request of any 2025-era session (no sticky sessions), a stream
 * resumed with `Last-Event-ID` on another instance replays what was missed, and list
 * changes and resource updates reach the clients of every instance.
 */
export interface Cluster {
  readonly sessions: SharedSessions;
  /**
   * Event stores shared by the instances: event ids unique within a session across
   * instances, and `watch` so the instance holding a session's GET stream hears of the
   * events other instances stored for it.
   */
  readonly eventStore: EventStoreFactory;
  /**
   * Sends a change made on this instance to the clients of every instance: once to each
   * 2025-era session of the cluster (`resourceUpdated` only to its subscribers), through
   * the session's GET stream, whichever instance holds it; and to the other instances,
   * for their 2026-07-28 `subscriptions/listen` streams (see `onChange`).
   */
  publish(change: ClusterChange): Promise<void>;
  /** Calls `listener` with each change published by another instance; returns the function that stops it. */
  onChange(listener: (change: ClusterChange) => void): () => void;
  /** `ctx.session` of a session: kept with it, seen by every instance, ended with it. */
  sessionState(sessionId: string): SessionState;
  /**
   * The 2026-07-28 round states already accepted, shared by the instances, so a state is
   * accepted once across the cluster. The app uses it unless its `requestState.usedStates`
   * names another store. `createRedisCluster` brings one. A store of your own says it is shared
   * with `shared: true` (rate limits then let a round's retry taken on another instance go on free).
   */
  readonly usedStates?: UsedStateStore;
  /**
   * Round trips: hands the client's answer to a server-to-client request (elicitation,
   * sampling, roots) to the instance that asked, `instance`, for its session `sessionId`.
   * `'*'` hands it to every instance (a client's cancellation: the call may run on any).
   */
  relay(instance: string, sessionId: string, message: Record<string, unknown>): Promise<void>;
  /** Calls `listener` with each message relayed to `instance` (or to `'*'`); resolves, once listening, to the function that stops it. */
  onRelay(instance: string, listener: (sessionId: string, message: Record<string, unknown>) => void): Promise<() => void>;
}
