import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { Cluster } from '@toolwright/server/http';
import { ClusterChannels } from './ClusterChannels';
import type { ClusterConnection } from './ClusterConnection';
import { clusterKeys } from './clusterKeys';
import { clusterLog } from './clusterLog';
import { withClusterScripts } from './ClusterRedis';
import { connectRedis } from './connectRedis';
import { createRedisRequestStateStore } from './createRedisRequestStateStore';
import { publishChange } from './publishChange';
import { redisEventStore, type EventLimits } from './redisEventStore';
import { redisSessions } from './redisSessions';
import { redisSessionState } from './redisSessionState';
import { redisWarnings } from './redisWarnings';
import { reportOutages } from './reportOutages';
import { runCommand } from './runCommand';
import { checkClusterOptions } from './checkClusterOptions';

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
  checkClusterOptions(options);
  const prefix = options.prefix ?? 'toolwright:';
  const limits: EventLimits = {
    maxEvents: options.maxEventsPerSession ?? 1000,
    maxEventBytes: options.maxEventBytesPerSession ?? 4 * 1024 * 1024,
    maxEventBytesTotal: options.maxEventBytesTotal ?? 256 * 1024 * 1024,
    eventTtlMs: options.eventTtlMs ?? 30 * 60_000,
    getStreamClaimMs: options.getStreamClaimMs ?? 15_000,
  };
  const subscriptionLimits = { maxSubscriptions: options.maxSubscriptionsPerSession ?? 100, maxUriBytes: options.maxSubscriptionUriBytes ?? 2048 };
  const log = clusterLog(options.logWrite ?? ((line: string) => process.stderr.write(line)));
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
  const redis = withClusterScripts(new Redis(url, base));
  // The subscriber queues its subscriptions while disconnected; it runs no other command. ClusterChannels subscribes
  // again on each reconnection (ioredis's autoResubscribe sends a SUBSCRIBE with no handler: see ClusterChannels.open).
  const subscriber = new Redis(url, { ...base, enableOfflineQueue: true, commandTimeout: undefined, autoResubscribe: false });
  reportOutages(redis, subscriber, log);
  await connectRedis(redis, subscriber, { url, prefix, secrets: [options.redis?.password] });
  for (const warning of redisWarnings(url, options.redis)) log('warn', warning);

  const connection: ClusterConnection = { redis, keys: clusterKeys(prefix, origin), origin, log };
  const channels = new ClusterChannels(subscriber, connection);
  await channels.open();

  return {
    redis,
    prefix,
    get connected() {
      return redis.status === 'ready' && subscriber.status === 'ready';
    },
    sessions: redisSessions(connection, subscriptionLimits, channels),
    eventStore: (sessionId) => redisEventStore(connection, limits, channels, sessionId),
    usedStates: createRedisRequestStateStore({ redis, prefix }),
    sessionState: (sessionId) => redisSessionState(connection, sessionId),
    publish: (change) => publishChange(connection, limits, change),
    onChange: (listener) => channels.onChange(listener),
    async relay(instance, sessionId, message) {
      await runCommand(() => redis.publish(connection.keys.relay(instance), `${sessionId}\n${JSON.stringify(message)}`));
    },
    onRelay: (instance, listener) => channels.onRelay(instance, listener),
    async close() {
      await Promise.allSettled([redis.quit(), subscriber.quit()]);
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}
