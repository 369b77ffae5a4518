import type { Redis } from 'ioredis';
import type { ClusterChange, EventStore } from '@toolwright/server/http';
import type { ClusterConnection } from './ClusterConnection';
import { SESSION_ID } from './clusterKeys';
import { isEventId } from './isEventId';
import { isObject, parseJson } from './parseJson';
import { isChange } from './publishChange';

type JSONRPCMessage = Parameters<EventStore['storeEvent']>[1];

/** Hears an event another instance stored for a session: its origin, id, stream and message. */
export type SessionEventListener = (origin: string, eventId: string, streamId: string, message: JSONRPCMessage) => void;

/** Hears a message relayed to this instance for session `sessionId`. */
type RelayListener = (sessionId: string, message: Record<string, unknown>) => void;

/**
 * The cluster's pub/sub on one subscriber connection for the whole process: ended sessions,
 * published changes, relayed client answers and each watched session's events, handed to the
 * listeners here. A malformed message is dropped (and reported, once a second at most).
 */
export class ClusterChannels {
  private readonly endedListeners = new Set<(id: string) => void>();
  private readonly changeListeners = new Set<(change: ClusterChange) => void>();
  private readonly relays = new Map<string, Set<RelayListener>>();
  private readonly watchers = new Map<string, Set<SessionEventListener>>();
  /** Messages dropped as malformed since the last report: one warning line per second at most, however many arrive. */
  private dropped = 0;
  private dropReported = 0;

  constructor(
    private readonly subscriber: Redis,
    private readonly connection: ClusterConnection,
  ) {}

  /**
   * Subscribes to the channels every instance hears, and hears them from now on. On each reconnection it subscribes
   * again to every channel it listens on, its errors caught: ioredis's own resubscription (autoResubscribe) has no
   * handler, so a close() while Redis had not yet answered it (Redis just back) left an unhandled rejection.
   */
  async open(): Promise<void> {
    const { keys } = this.connection;
    await this.subscriber.subscribe(keys.ended, keys.changes, keys.alive);
    this.subscriber.on('ready', () => void this.subscriber.subscribe(...this.channels()).catch(() => undefined));
    this.subscriber.on('message', (channel: string, payload: string) => {
      try {
        this.hear(channel, payload);
      } catch (error) {
        this.drop(channel, `${(error as Error)?.message ?? String(error)}`.slice(0, 200));
      }
    });
  }

  /** Calls `listener` with the id of each session ended on another instance; returns the function that stops it. */
  onEnded(listener: (id: string) => void): () => void {
    this.endedListeners.add(listener);
    return () => void this.endedListeners.delete(listener);
  }

  /** Calls `listener` with each change another instance published; returns the function that stops it. */
  onChange(listener: (change: ClusterChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => void this.changeListeners.delete(listener);
  }

  /** Calls `listener` with each message relayed to `instance` (or to `'*'`); resolves, once subscribed, to the function that stops it. */
  async onRelay(instance: string, listener: RelayListener): Promise<() => void> {
    const { keys } = this.connection;
    const channels = [keys.relay(instance), keys.relay('*')];
    for (const channel of channels) {
      const set = this.relays.get(channel) ?? new Set();
      this.relays.set(channel, set);
      set.add(listener);
    }
    await this.subscriber.subscribe(...channels);
    return () => {
      for (const channel of channels) {
        const set = this.relays.get(channel);
        set?.delete(listener);
        if (set?.size === 0) {
          this.relays.delete(channel);
          void this.subscriber.unsubscribe(channel).catch(() => {});
        }
      }
    };
  }

  /** Calls `listener` with each event stored for `session` by any instance; resolves, once subscribed, to the function that stops it. */
  async watchSession(session: string, listener: SessionEventListener): Promise<() => void> {
    const { keys } = this.connection;
    let set = this.watchers.get(session);
    if (!set) {
      set = new Set();
      this.watchers.set(session, set);
      set.add(listener);
      await this.subscriber.subscribe(keys.ev(session));
    } else set.add(listener);
    return () => {
      const current = this.watchers.get(session);
      if (!current?.delete(listener) || current.size > 0) return;
      this.watchers.delete(session);
      void this.subscriber.unsubscribe(keys.ev(session)).catch(() => {});
    };
  }

  /** Every channel listened on now: the shared ones, the relays and each watched session's. */
  private channels(): string[] {
    const { keys } = this.connection;
    return [keys.ended, keys.changes, keys.alive, ...this.relays.keys(), ...[...this.watchers.keys()].map((session) => keys.ev(session))];
  }

  private drop(channel: string, why: string): void {
    this.dropped++;
    if (Date.now() - this.dropReported < 1000) return;
    this.dropReported = Date.now();
    this.connection.log(
      'warn',
      `redis: dropped ${this.dropped} malformed message(s) on a cluster channel (last: ${why} on '${channel.slice(0, 200)}'); another instance of another version, or something else, publishes there`,
    );
    this.dropped = 0;
  }

  /**
   * An `ended` message is believed once the session's record is gone (the scripts delete it
   * before they publish): whoever can publish on the channel could otherwise close any live
   * session's copies, GET streams included. While Redis cannot tell, the copies stay; the
   * session's next request finds out.
   */
  private async hearEnded(id: string): Promise<void> {
    if (this.endedListeners.size === 0) return;
    const { redis, keys } = this.connection;
    try {
      if ((await redis.exists(keys.session(id))) !== 0) return this.drop(keys.ended, 'a session that has not ended');
    } catch {
      return;
    }
    for (const listener of this.endedListeners) listener(id);
  }

  /** A message from another instance: whatever it holds, it never throws out of ioredis's reader (which would crash the process). */
  private hear(channel: string, payload: string): void {
    const { keys, origin } = this.connection;
    if (channel === keys.ended) {
      if (SESSION_ID.test(payload)) void this.hearEnded(payload);
      return;
    }
    const nl = payload.indexOf('\n');
    if (nl < 0) return this.drop(channel, 'no origin line');
    const from = payload.slice(0, nl);
    const relay = this.relays.get(channel);
    if (relay) {
      const message = parseJson(payload.slice(nl + 1));
      if (!SESSION_ID.test(from) || !isObject(message) || !isRelayed(message, channel === keys.relay('*'))) return this.drop(channel, 'not a session id and a client answer or cancellation');
      for (const listener of relay) listener(from, message);
      return;
    }
    if (channel === keys.changes) {
      if (from === origin) return;
      const change = parseJson(payload.slice(nl + 1));
      if (!isChange(change)) return this.drop(channel, 'not a list or resource change');
      for (const listener of this.changeListeners) listener(change);
      return;
    }
    if (!channel.startsWith(keys.ev(''))) return;
    const session = channel.slice(keys.ev('').length);
    const listeners = this.watchers.get(session);
    if (!listeners) return;
    const nl2 = payload.indexOf('\n', nl + 1);
    const nl3 = nl2 < 0 ? -1 : payload.indexOf('\n', nl2 + 1);
    if (nl3 < 0) return this.drop(channel, 'too few lines');
    const eventId = payload.slice(nl + 1, nl2);
    const streamId = payload.slice(nl2 + 1, nl3);
    const message = parseJson(payload.slice(nl3 + 1));
    if (!isEventId(eventId) || !isObject(message)) return this.drop(channel, 'not an event id and a JSON-RPC message');
    for (const listener of listeners) listener(from, eventId, streamId, message as JSONRPCMessage);
  }
}

/**
 * Whether `message` is what `relay` carries: to one instance a client's answer (an id with a
 * result or an error, no method), to every instance (`toAll`) a client's cancellation. Anything
 * else published on a relay channel, a request above all (it would run in the session as if its
 * client had sent it), is dropped.
 */
function isRelayed(message: Record<string, unknown>, toAll: boolean): boolean {
  if (toAll) return message.method === 'notifications/cancelled' && !Object.hasOwn(message, 'id');
  return !Object.hasOwn(message, 'method') && Object.hasOwn(message, 'id') && (Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error'));
}
