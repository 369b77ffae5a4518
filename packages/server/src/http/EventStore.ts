import type { JSONRPCMessage } from '../sdk/sdk';

/**
 * Keeps the events one session sent, so a client that lost its SSE stream can reconnect
 * with `Last-Event-ID` and receive what it missed. Structurally the SDK's `EventStore`.
 *
 * One store serves ONE session (see `EventStoreFactory`): the SDK names every session's
 * standalone GET stream the same, so a store shared across sessions would replay one
 * session's notifications to another. A shared backend (Redis, a database) therefore
 * prefixes its keys with the session id it was created for.
 */
export interface EventStore {
  /** Stores `message` as the next event of `streamId`; returns its event id (unique within the session). */
  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string>;
  /** The stream an event id belongs to, or undefined when the id is unknown or expired (the client then gets 400). */
  getStreamIdForEventId?(eventId: string): Promise<string | undefined>;
  /** Sends, in order, every event of the same stream stored after `lastEventId`; returns that stream's id. */
  replayEventsAfter(lastEventId: string, sink: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string>;
  /**
   * Shared stores (several instances serve one session): calls `listener` with each event
   * of `streamId` that ANOTHER store of the same session stored (another instance, or a
   * cluster-wide notification), so the instance holding the live stream sends it too.
   * Resolves once listening, to the function that stops it.
   */
  watch?(streamId: string, listener: (eventId: string, message: JSONRPCMessage) => void): Promise<() => void>;
  /**
   * Shared stores: claims the live connection of `streamId` (the GET stream) across every
   * instance serving the session, so the session holds one GET stream in the cluster, as on one
   * instance. Resolves to the function that gives the claim back (once the stream closes), or to
   * undefined while another connection holds it: the client then gets 409, as from one instance.
   * A claim its holder stops renewing (a crashed instance) lapses by itself; `lost` is called when
   * this one lapsed and another connection took it (the stream is then ended). Without it, each
   * instance allows one GET stream of its own.
   */
  claim?(streamId: string, lost: () => void): Promise<(() => void) | undefined>;
  /** Called once the session has ended: drop everything kept for it. */
  close?(): void | Promise<void>;
}

/** Creates the store for one session. */
export type EventStoreFactory = (sessionId: string) => EventStore;
