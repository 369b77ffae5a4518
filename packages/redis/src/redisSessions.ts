import type { SessionChange, SessionRecord, SharedSessions } from '@toolwright/server/http';
import type { ClusterChannels } from './ClusterChannels';
import type { ClusterConnection } from './ClusterConnection';
import { SESSION_ID } from './clusterKeys';
import { isObject, parseJson } from './parseJson';
import { runCommand } from './runCommand';
import { SubscriptionRefusedError } from './SubscriptionRefusedError';

const LOG_LEVELS: ReadonlySet<string> = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

/** The caps of one session's resource subscriptions (`maxSubscriptionsPerSession`, `maxSubscriptionUriBytes`). */
export interface SubscriptionLimits {
  readonly maxSubscriptions: number;
  readonly maxUriBytes: number;
}

/** The cluster's sessions in Redis: each a hash with its record, log level and subscriptions, expiring when idle; ends heard through `channels`. */
export function redisSessions(connection: ClusterConnection, limits: SubscriptionLimits, channels: ClusterChannels): SharedSessions {
  const { redis, keys } = connection;
  const { prefix } = keys;
  const { maxSubscriptions, maxUriBytes } = limits;

  /** The record PEEK or TOUCH found (`[rec, level]`), or undefined: none, another principal's, or unreadable. */
  function recordOf(id: string, found: [string | null, string | null] | 0 | null): SessionRecord | undefined {
    if (!Array.isArray(found) || typeof found[0] !== 'string') return undefined;
    const rec = parseJson(found[0]);
    if (!isObject(rec) || !isObject(rec.initialize) || typeof rec.protocolVersion !== 'string' || !(rec.principal === null || typeof rec.principal === 'string')) {
      // Unreadable: the client gets 404 and starts a new session, as for one that expired.
      connection.log('warn', `redis: session ${id} has a malformed record in Redis (written by another version?); it is treated as ended`);
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

  return {
    async create(record, sessionLimits) {
      const rec = JSON.stringify({ initialize: record.initialize, protocolVersion: record.protocolVersion, principal: record.principal ?? null });
      const ownerKey = keys.owner(record.owner ?? `principal ${record.principal ?? ''}`);
      const created = await runCommand(() =>
        redis.twCreate(
          keys.sessions,
          keys.session(record.id),
          prefix + ownerKey,
          Date.now(),
          sessionLimits.idleTimeoutMs,
          sessionLimits.maxSessions,
          prefix,
          record.id,
          rec,
          sessionLimits.maxSessionsPerPrincipal,
          record.principal ?? '',
          ownerKey,
        ),
      );
      return created >= 0;
    },
    async peek(id, principal) {
      // An id no session was given (any text a client sent as Mcp-Session-Id) is unknown without asking Redis: it never becomes a key.
      if (!SESSION_ID.test(id)) return undefined;
      return recordOf(id, await runCommand(() => redis.twPeek(keys.session(id), id, principal ?? '', prefix)));
    },
    async touch(id, idleTimeoutMs, principal) {
      if (!SESSION_ID.test(id)) return undefined;
      return recordOf(
        id,
        await runCommand(() => redis.twTouch(keys.session(id), keys.sessions, keys.events(id), keys.state(id), keys.subs(id), Date.now(), idleTimeoutMs, id, principal ?? '', prefix)),
      );
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
      const done = await runCommand(() => redis.twUpdate(keys.session(id), keys.subs(id), kind, value, maxSubscriptions));
      if (done === -1) {
        throw new SubscriptionRefusedError(`Invalid params: this session already holds the most subscriptions it may (${maxSubscriptions}, maxSubscriptionsPerSession). Unsubscribe from a URI first.`);
      }
    },
    async end(id) {
      if (!SESSION_ID.test(id)) return;
      await runCommand(() => redis.twEnd(keys.session(id), id, keys.ended, prefix, keys.alive));
    },
    onEnded: (listener) => channels.onEnded(listener),
  };
}

/** Whether `text` holds a C0 control character or DEL (a line break could smuggle several URIs into one). */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
