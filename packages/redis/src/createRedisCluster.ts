import { createHash, randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { Cluster, ClusterChange, EventStore, SessionChange, SessionRecord, SharedSessions } from '@toolwright/server/http';
import { GET_STREAM_ID } from '@toolwright/server/http';
import { createRedisRequestStateStore } from './createRedisRequestStateStore';
import { claimStream } from './claimStream';
import { connectRedis } from './connectRedis';
import { redisWarnings } from './redisWarnings';
import { RedisUnavailableError } from './RedisUnavailableError';
import { BROADCAST, CREATE, END, PEEK, SET_STATE, STORE_EVENT, TOUCH, UPDATE } from './scripts';

type JSONRPCMessage = Parameters<EventStore['storeEvent']>[1];

export interface RedisClusterOptions {
  /** Where Redis is: `redis://[user:password@]host:port[/db]` or `rediss://` for TLS. Default `redis://127.0.0.1:6379`. */
  url?: string;
  /** More ioredis options (TLS, Sentinel, ...), merged over Toolwright's. */
  redis?: RedisOptions;
  /** Put before every key and channel, so several apps share one Redis. Default `toolwright:`. */
  prefix?: string;
  /** Events kept per session for `Last-Event-ID` replay (older ones fall out). Default 1000. */
  maxEventsPerSession?: number;
  /** Bytes of events kept per session (older ones fall out; an event bigger than this alone is sent but not kept). Default 4 MiB. */
  maxEventBytesPerSession?: number;
  /** Bytes of events kept for all sessions together; past it, the session storing an event drops its own oldest first. Default 256 MiB. */
  maxEventBytesTotal?: number;
  /** Resource subscriptions one session may hold (`resources/subscribe`); one more is refused. Default 100. */
  maxSubscriptionsPerSession?: number;
  /** Longest subscribed URI, in bytes; a longer one is refused. Default 2048. */
  maxSubscriptionUriBytes?: number;
  /** The TTL of events of a session this store does not hold (an `eventStore` used without the cluster's sessions). Default 30 minutes. */
  eventTtlMs?: number;
  /**
   * How long a session's claim on its GET stream lasts unless its instance renews it (every third
   * of it, while the stream is open): one GET stream per session across the cluster. A crashed
   * instance's claim is taken over as soon as Redis has dropped its connections, and lapses after
   * this long at the latest (a host gone without closing them). Default 15000.
   */
  getStreamClaimMs?: number;
  /** A Redis command unanswered after this long fails (the request gets 503). Default 2000. */
  commandTimeoutMs?: number;
  /** `createRedisCluster` fails if Redis is not reachable within this time. Default 5000. */
  connectTimeoutMs?: number;
  /** Where connection problems are reported (once per outage, and on recovery). Default: stderr. */
  logWrite?: (line: string) => void;
}

/** A `Cluster` on Redis; pass it as `cluster` to `app.listen({ transport: 'http' })` or `createHttpHandler`. */
export interface RedisCluster extends Cluster {
  /** The connection that runs the commands (not the subscriber). */
  readonly redis: Redis;
  /** True while both connections are up. */
  readonly connected: boolean;
  /** The key and channel prefix. */
  readonly prefix: string;
  /** Closes both connections. Call after the HTTP listener closed. */
  close(): Promise<void>;
}

interface Scripted extends Redis {
  twCreate(
    sessions: string,
    session: string,
    owner: string,
    now: number,
    ttl: number,
    max: number,
    prefix: string,
    id: string,
    rec: string,
    perOwner: number,
    principal: string,
    ownerKey: string,
  ): Promise<number>;
  twPeek(session: string, id: string, principal: string, prefix: string): Promise<[string | null, string | null] | 0 | null>;
  twTouch(
    session: string,
    sessions: string,
    events: string,
    state: string,
    subs: string,
    now: number,
    ttl: number,
    id: string,
    principal: string,
    prefix: string,
  ): Promise<[string | null, string | null] | 0 | null>;
  twUpdate(session: string, subs: string, kind: string, value: string, maxSubs: number): Promise<number>;
  twEnd(session: string, id: string, channel: string, prefix: string, alive: string): Promise<number>;
  twStoreEvent(
    session: string,
    maxlen: number,
    ttl: number,
    streamId: string,
    json: string,
    origin: string,
    channel: string,
    getStream: string,
    prefix: string,
    sessionId: string,
    maxBytes: number,
    maxTotal: number,
    now: number,
  ): Promise<string>;
  twSetState(state: string, session: string, key: string, json: string): Promise<number>;
  twBroadcast(
    sessions: string,
    now: number,
    prefix: string,
    json: string,
    uri: string,
    maxlen: number,
    origin: string,
    change: string,
    getStream: string,
    maxBytes: number,
    maxTotal: number,
  ): Promise<number>;
}

/** A subscription the cluster refuses by its caps: the client gets its message as invalid params. */
class SubscriptionRefusedError extends Error {
  readonly refused = true;
  constructor(message: string) {
    super(message);
    this.name = 'SubscriptionRefusedError';
  }
}

/** Whether `text` holds a C0 control character or DEL (a line break could smuggle several URIs into one). */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

const LIST_CHANGED = { tools: 'notifications/tools/list_changed', resources: 'notifications/resources/list_changed', prompts: 'notifications/prompts/list_changed' } as const;
const EVENT_ID = /^(\d{1,20})-(\d{1,20})$/;
const MAX_U64 = 2n ** 64n - 1n;
/** The ids sessions get (UUIDs; any URL-safe token up to 128 characters): never a key pattern, hash tag, separator or control character. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;
const LOG_LEVELS: ReadonlySet<string> = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

/** Whether `eventId` can be a Redis stream entry id (`ms-seq`, each at most 2^64-1): anything else is an id no one was given. */
function isEventId(eventId: string): boolean {
  const match = EVENT_ID.exec(eventId);
  return match !== null && BigInt(match[1]) <= MAX_U64 && BigInt(match[2]) <= MAX_U64;
}

/** `json` parsed, or undefined when it is not valid JSON (a value another, compromised or older, instance wrote). */
function parseJson(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/** A plain JSON object (not null, not an array). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A change as `publish` sends it; anything else on the channel is dropped. */
function isChange(value: unknown): value is ClusterChange {
  if (!isObject(value)) return false;
  if (Object.hasOwn(value, 'resourceUpdated')) return typeof value.resourceUpdated === 'string';
  return typeof value.list === 'string' && Object.hasOwn(LIST_CHANGED, value.list);
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

/**
 * Connects to Redis and returns the cluster store every instance of an app shares:
 * sessions, resumable events, list-change and resource-update fan-out. Resolves once
 * Redis answers; rejects after `connectTimeoutMs` otherwise.
 *
 * While Redis is unreachable, commands fail at once (no offline queue) or after
 * `commandTimeoutMs`, so requests get a 503 instead of hanging; the connections
 * reconnect by themselves and serving resumes when Redis is back.
 */
export async function createRedisCluster(options: RedisClusterOptions = {}): Promise<RedisCluster> {
  const prefix = options.prefix ?? 'toolwright:';
  const maxEvents = options.maxEventsPerSession ?? 1000;
  const maxEventBytes = options.maxEventBytesPerSession ?? 4 * 1024 * 1024;
  const maxEventBytesTotal = options.maxEventBytesTotal ?? 256 * 1024 * 1024;
  const maxSubscriptions = options.maxSubscriptionsPerSession ?? 100;
  const maxUriBytes = options.maxSubscriptionUriBytes ?? 2048;
  const eventTtlMs = options.eventTtlMs ?? 30 * 60_000;
  const getStreamClaimMs = options.getStreamClaimMs ?? 15_000;
  const write = options.logWrite ?? ((line: string) => process.stderr.write(line));
  const origin = randomUUID();
  const base: RedisOptions = {
    lazyConnect: true,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(50 * times, 1000),
    ...options.redis,
  };
  const url = options.url ?? 'redis://127.0.0.1:6379';
  const redis = new Redis(url, base) as Scripted;
  // The subscriber queues its (re)subscriptions while disconnected; it runs no other command.
  const subscriber = new Redis(url, { ...base, enableOfflineQueue: true, commandTimeout: undefined, autoResubscribe: true });
  redis.defineCommand('twCreate', { numberOfKeys: 3, lua: CREATE });
  redis.defineCommand('twPeek', { numberOfKeys: 1, lua: PEEK });
  redis.defineCommand('twTouch', { numberOfKeys: 5, lua: TOUCH });
  redis.defineCommand('twSetState', { numberOfKeys: 2, lua: SET_STATE });
  redis.defineCommand('twUpdate', { numberOfKeys: 2, lua: UPDATE });
  redis.defineCommand('twEnd', { numberOfKeys: 1, lua: END });
  redis.defineCommand('twStoreEvent', { numberOfKeys: 1, lua: STORE_EVENT });
  redis.defineCommand('twBroadcast', { numberOfKeys: 1, lua: BROADCAST });

  const warn = (msg: string) => write(`${JSON.stringify({ time: new Date().toISOString(), level: 'warn', msg })}\n`);
  let down = false;
  const report = (error: Error) => {
    if (down) return;
    down = true;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'redis unreachable', error: error.message })}\n`);
  };
  for (const connection of [redis, subscriber]) {
    connection.on('error', report);
    connection.on('ready', () => {
      if (!down || redis.status !== 'ready' || subscriber.status !== 'ready') return;
      down = false;
      write(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'redis reachable again' })}\n`);
    });
  }
  await connectRedis(redis, subscriber, { url, prefix, secrets: [options.redis?.password] });
  for (const warning of redisWarnings(url, options.redis)) write(`${JSON.stringify({ time: new Date().toISOString(), level: 'warn', msg: warning })}\n`);

  const k = {
    sessions: `${prefix}sessions`,
    session: (id: string) => `${prefix}s:${id}`,
    events: (id: string) => `${prefix}e:${id}`,
    state: (id: string) => `${prefix}st:${id}`,
    subs: (id: string) => `${prefix}sub:${id}`,
    /** An owner's index, unprefixed (the session hash names it): its principal or address hashed, so no caller's text becomes a key. */
    owner: (owner: string) => `o:${createHash('sha256').update(owner).digest('hex').slice(0, 32)}`,
    ended: `${prefix}ended`,
    changes: `${prefix}changes`,
    ev: (id: string) => `${prefix}ev:${id}`,
    getStream: (id: string) => `${prefix}gs:${id}`,
    /** Listened on by this process's subscriber while it runs: a claim naming it is this process's (see `claimStream`). */
    alive: `${prefix}alive:${origin}`,
    relay: (instance: string) => `${prefix}rt:${instance}`,
  };

  /** Runs one command, turning every failure into a RedisUnavailableError. */
  async function run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw error instanceof RedisUnavailableError ? error : new RedisUnavailableError(error);
    }
  }

  // Pub/sub: one subscriber connection for the whole process.
  const endedListeners = new Set<(id: string) => void>();
  const changeListeners = new Set<(change: ClusterChange) => void>();
  const relays = new Map<string, Set<(sessionId: string, message: Record<string, unknown>) => void>>();
  const watchers = new Map<string, Set<(origin: string, eventId: string, streamId: string, message: JSONRPCMessage) => void>>();
  await subscriber.subscribe(k.ended, k.changes, k.alive);
  /** Messages dropped as malformed since the last report: one warning line per second at most, however many arrive. */
  let dropped = 0;
  let dropReported = 0;
  const drop = (channel: string, why: string) => {
    dropped++;
    if (Date.now() - dropReported < 1000) return;
    dropReported = Date.now();
    warn(`redis: dropped ${dropped} malformed message(s) on a cluster channel (last: ${why} on '${channel.slice(0, 200)}'); another instance of another version, or something else, publishes there`);
    dropped = 0;
  };
  /**
   * An `ended` message is believed once the session's record is gone (the scripts delete it
   * before they publish): whoever can publish on the channel could otherwise close any live
   * session's copies, GET streams included. While Redis cannot tell, the copies stay; the
   * session's next request finds out.
   */
  const hearEnded = async (id: string) => {
    if (endedListeners.size === 0) return;
    try {
      if ((await redis.exists(k.session(id))) !== 0) return drop(k.ended, 'a session that has not ended');
    } catch {
      return;
    }
    for (const listener of endedListeners) listener(id);
  };
  /** A message from another instance: whatever it holds, it never throws out of ioredis's reader (which would crash the process). */
  const hear = (channel: string, payload: string) => {
    if (channel === k.ended) {
      if (SESSION_ID.test(payload)) void hearEnded(payload);
      return;
    }
    const nl = payload.indexOf('\n');
    if (nl < 0) return drop(channel, 'no origin line');
    const from = payload.slice(0, nl);
    const relay = relays.get(channel);
    if (relay) {
      const message = parseJson(payload.slice(nl + 1));
      if (!SESSION_ID.test(from) || !isObject(message) || !isRelayed(message, channel === k.relay('*'))) return drop(channel, 'not a session id and a client answer or cancellation');
      for (const listener of relay) listener(from, message);
      return;
    }
    if (channel === k.changes) {
      if (from === origin) return;
      const change = parseJson(payload.slice(nl + 1));
      if (!isChange(change)) return drop(channel, 'not a list or resource change');
      for (const listener of changeListeners) listener(change);
      return;
    }
    if (!channel.startsWith(k.ev(''))) return;
    const session = channel.slice(k.ev('').length);
    const listeners = watchers.get(session);
    if (!listeners) return;
    const nl2 = payload.indexOf('\n', nl + 1);
    const nl3 = nl2 < 0 ? -1 : payload.indexOf('\n', nl2 + 1);
    if (nl3 < 0) return drop(channel, 'too few lines');
    const eventId = payload.slice(nl + 1, nl2);
    const streamId = payload.slice(nl2 + 1, nl3);
    const message = parseJson(payload.slice(nl3 + 1));
    if (!isEventId(eventId) || !isObject(message)) return drop(channel, 'not an event id and a JSON-RPC message');
    for (const listener of listeners) listener(from, eventId, streamId, message as JSONRPCMessage);
  };
  subscriber.on('message', (channel: string, payload: string) => {
    try {
      hear(channel, payload);
    } catch (error) {
      drop(channel, `${(error as Error)?.message ?? String(error)}`.slice(0, 200));
    }
  });

  async function watchSession(session: string, listener: (origin: string, eventId: string, streamId: string, message: JSONRPCMessage) => void): Promise<() => void> {
    let set = watchers.get(session);
    if (!set) {
      set = new Set();
      watchers.set(session, set);
      set.add(listener);
      await subscriber.subscribe(k.ev(session));
    } else set.add(listener);
    return () => {
      const current = watchers.get(session);
      if (!current?.delete(listener) || current.size > 0) return;
      watchers.delete(session);
      void subscriber.unsubscribe(k.ev(session)).catch(() => {});
    };
  }

  /** The record PEEK or TOUCH found (`[rec, level]`), or undefined: none, another principal's, or unreadable. */
  function recordOf(id: string, found: [string | null, string | null] | 0 | null): SessionRecord | undefined {
    if (!Array.isArray(found) || typeof found[0] !== 'string') return undefined;
    const rec = parseJson(found[0]);
    if (!isObject(rec) || !isObject(rec.initialize) || typeof rec.protocolVersion !== 'string' || !(rec.principal === null || typeof rec.principal === 'string')) {
      // Unreadable: the client gets 404 and starts a new session, as for one that expired.
      warn(`redis: session ${id} has a malformed record in Redis (written by another version?); it is treated as ended`);
      return undefined;
    }
    return {
      id,
      initialize: rec.initialize,
      protocolVersion: rec.protocolVersion,
      principal: rec.principal ?? undefined,
      ...(typeof found[1] === 'string' && LOG_LEVELS.has(found[1]) ? { logLevel: found[1] } : {}),
    };
  }

  const sessions: SharedSessions = {
    async create(record, limits) {
      const rec = JSON.stringify({ initialize: record.initialize, protocolVersion: record.protocolVersion, principal: record.principal ?? null });
      const ownerKey = k.owner(record.owner ?? `principal ${record.principal ?? ''}`);
      const created = await run(() =>
        redis.twCreate(
          k.sessions,
          k.session(record.id),
          prefix + ownerKey,
          Date.now(),
          limits.idleTimeoutMs,
          limits.maxSessions,
          prefix,
          record.id,
          rec,
          limits.maxSessionsPerPrincipal,
          record.principal ?? '',
          ownerKey,
        ),
      );
      return created >= 0;
    },
    async peek(id, principal) {
      // An id no session was given (any text a client sent as Mcp-Session-Id) is unknown without asking Redis: it never becomes a key.
      if (!SESSION_ID.test(id)) return undefined;
      return recordOf(id, await run(() => redis.twPeek(k.session(id), id, principal ?? '', prefix)));
    },
    async touch(id, idleTimeoutMs, principal) {
      if (!SESSION_ID.test(id)) return undefined;
      return recordOf(id, await run(() => redis.twTouch(k.session(id), k.sessions, k.events(id), k.state(id), k.subs(id), Date.now(), idleTimeoutMs, id, principal ?? '', prefix)));
    },
    async update(id, change: SessionChange) {
      const [kind, value] = 'logLevel' in change ? ['level', change.logLevel] : 'subscribe' in change ? ['subscribe', change.subscribe] : ['unsubscribe', change.unsubscribe];
      if (kind === 'subscribe') {
        if (hasControl(value)) throw new SubscriptionRefusedError('Invalid params: a subscribed URI cannot hold control characters (such as a line break). Send the URI as resources/list gives it.');
        if (Buffer.byteLength(value) > maxUriBytes) {
          throw new SubscriptionRefusedError(`Invalid params: a subscribed URI may be at most ${maxUriBytes} bytes long (maxSubscriptionUriBytes). Subscribe to a shorter URI.`);
        }
      }
      if (!SESSION_ID.test(id)) return;
      const done = await run(() => redis.twUpdate(k.session(id), k.subs(id), kind, value, maxSubscriptions));
      if (done === -1) {
        throw new SubscriptionRefusedError(`Invalid params: this session already holds the most subscriptions it may (${maxSubscriptions}, maxSubscriptionsPerSession). Unsubscribe from a URI first.`);
      }
    },
    async end(id) {
      if (!SESSION_ID.test(id)) return;
      await run(() => redis.twEnd(k.session(id), id, k.ended, prefix, k.alive));
    },
    onEnded(listener) {
      endedListeners.add(listener);
      return () => void endedListeners.delete(listener);
    },
  };

  /** One session's events; several instances each make one for the same session. */
  function eventStore(sessionId: string): EventStore {
    const self = randomUUID();
    const stops = new Set<() => void>();
    const key = k.events(sessionId);
    const find = async (eventId: string) => {
      if (!isEventId(eventId)) return undefined;
      const [entry] = await run(() => redis.xrange(key, eventId, eventId));
      return entry ? fieldsOf(entry[1]) : undefined;
    };
    return {
      storeEvent: (streamId, message) =>
        run(() =>
          redis.twStoreEvent(
            k.session(sessionId),
            maxEvents,
            eventTtlMs,
            streamId,
            JSON.stringify(message),
            self,
            k.ev(sessionId),
            GET_STREAM_ID,
            prefix,
            sessionId,
            maxEventBytes,
            maxEventBytesTotal,
            Date.now(),
          ),
        ),
      getStreamIdForEventId: async (eventId) => (await find(eventId))?.s,
      async replayEventsAfter(lastEventId, sink) {
        const last = await find(lastEventId);
        if (!last) throw new Error(`Unknown event id '${lastEventId}'.`);
        const entries = await run(() => redis.xrange(key, `(${lastEventId}`, '+'));
        for (const [id, fields] of entries) {
          const event = fieldsOf(fields);
          // Priming events carry no message (an empty object): they are never replayed; nor is one that is not a JSON object (another version's, or corrupted).
          if (event.s !== last.s || event.m === '{}') continue;
          const message = parseJson(event.m);
          if (isObject(message)) await sink.send(id, message as JSONRPCMessage);
          else warn(`redis: event ${id} of session ${sessionId} is not a JSON-RPC message; it was not replayed`);
        }
        return last.s;
      },
      // Only the GET stream's events are published (the transport watches no other stream).
      async watch(streamId, listener) {
        if (streamId !== GET_STREAM_ID) throw new Error(`@toolwright/redis: only the GET stream ('${GET_STREAM_ID}') can be watched, not '${streamId}'.`);
        const stop = await watchSession(sessionId, (from, eventId, stream, message) => {
          if (from !== self && stream === streamId && 'jsonrpc' in message) listener(eventId, message);
        });
        stops.add(stop);
        return () => {
          stops.delete(stop);
          stop();
        };
      },
      // One GET stream per session in the cluster, as on one instance.
      async claim(streamId, lost) {
        if (streamId !== GET_STREAM_ID) throw new Error(`@toolwright/redis: only the GET stream ('${GET_STREAM_ID}') can be claimed, not '${streamId}'.`);
        return run(() => claimStream(redis, k.getStream(sessionId), k.session(sessionId), getStreamClaimMs, k.alive, lost));
      },
      // The events stay: other instances serve the session too. Ending the session (DELETE, expiry) removes them.
      close() {
        for (const stop of stops) stop();
        stops.clear();
      },
    };
  }

  return {
    redis,
    prefix,
    get connected() {
      return redis.status === 'ready' && subscriber.status === 'ready';
    },
    sessions,
    eventStore,
    usedStates: createRedisRequestStateStore({ redis, prefix }),
    sessionState(sessionId) {
      const key = k.state(sessionId);
      const write = async (field: string, json: string) => {
        const changed = await run(() => redis.twSetState(key, k.session(sessionId), field, json));
        if (changed === -1) throw new Error(`ctx.session: session ${sessionId} has ended or expired; its state cannot change.`);
        return changed;
      };
      return {
        async get<T>(field: string) {
          const json = await run(() => redis.hget(key, field));
          if (json === null) return undefined;
          const value = parseJson(json);
          if (value === undefined) throw new Error(`ctx.session: the value of '${field.slice(0, 100)}' in Redis is not valid JSON (written by another version?); set it again.`);
          return value as T;
        },
        async set(field, value) {
          await write(field, value === undefined ? '' : JSON.stringify(value));
        },
        delete: async (field) => (await write(field, '')) > 0,
      };
    },
    async publish(change) {
      const [message, uri] =
        'resourceUpdated' in change
          ? [{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: change.resourceUpdated } }, change.resourceUpdated]
          : [{ jsonrpc: '2.0', method: LIST_CHANGED[change.list] }, ''];
      await run(() => redis.twBroadcast(k.sessions, Date.now(), prefix, JSON.stringify(message), uri, maxEvents, origin, JSON.stringify(change), GET_STREAM_ID, maxEventBytes, maxEventBytesTotal));
    },
    onChange(listener) {
      changeListeners.add(listener);
      return () => void changeListeners.delete(listener);
    },
    async relay(instance, sessionId, message) {
      await run(() => redis.publish(k.relay(instance), `${sessionId}\n${JSON.stringify(message)}`));
    },
    async onRelay(instance, listener) {
      const channels = [k.relay(instance), k.relay('*')];
      for (const channel of channels) {
        const set = relays.get(channel) ?? new Set();
        relays.set(channel, set);
        set.add(listener);
      }
      await subscriber.subscribe(...channels);
      return () => {
        for (const channel of channels) {
          const set = relays.get(channel);
          set?.delete(listener);
          if (set?.size === 0) {
            relays.delete(channel);
            void subscriber.unsubscribe(channel).catch(() => {});
          }
        }
      };
    },
    async close() {
      await Promise.allSettled([redis.quit(), subscriber.quit()]);
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}

function fieldsOf(fields: string[]): { s: string; m: string } {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) out[fields[i]] = fields[i + 1];
  return { s: out.s ?? '', m: out.m ?? '{}' };
}
