import { ToolwrightError } from '@toolwright/core';
import type { EventStore } from '@toolwright/server/http';
import { GET_STREAM_ID } from '@toolwright/server/http';
import { randomUUID } from 'node:crypto';
import { claimStream } from './claimStream';
import type { ClusterChannels } from './ClusterChannels';
import type { ClusterConnection } from './ClusterConnection';
import { isEventId } from './isEventId';
import { isObject, parseJson } from './parseJson';
import { runCommand } from './runCommand';

type JSONRPCMessage = Parameters<EventStore['storeEvent']>[1];

/** How many events, and how many bytes of them, the cluster keeps, and how long (see `RedisClusterOptions`). */
export interface EventLimits {
  /** `maxEventsPerSession`. */
  readonly maxEvents: number;
  /** `maxEventBytesPerSession`. */
  readonly maxEventBytes: number;
  readonly maxEventBytesTotal: number;
  readonly eventTtlMs: number;
  readonly getStreamClaimMs: number;
}

/** One session's events in a Redis stream; several instances each make one for the same session. */
export function redisEventStore(connection: ClusterConnection, limits: EventLimits, channels: ClusterChannels, sessionId: string): EventStore {
  const { redis, keys } = connection;
  const self = randomUUID();
  const stops = new Set<() => void>();
  const key = keys.events(sessionId);
  const find = async (eventId: string) => {
    if (!isEventId(eventId)) return undefined;
    const [entry] = await runCommand(() => redis.xrange(key, eventId, eventId));
    return entry ? fieldsOf(entry[1]) : undefined;
  };
  return {
    storeEvent: (streamId, message) =>
      runCommand(() =>
        redis.twStoreEvent(
          keys.session(sessionId),
          limits.maxEvents,
          limits.eventTtlMs,
          streamId,
          JSON.stringify(message),
          self,
          keys.ev(sessionId),
          GET_STREAM_ID,
          keys.prefix,
          sessionId,
          limits.maxEventBytes,
          limits.maxEventBytesTotal,
          Date.now(),
        ),
      ),
    getStreamIdForEventId: async (eventId) => (await find(eventId))?.s,
    async replayEventsAfter(lastEventId, sink) {
      const last = await find(lastEventId);
      if (!last)
        throw new ToolwrightError(`@toolwright/redis: unknown event id '${lastEventId.slice(0, 100)}' in session ${sessionId} (expired, trimmed, or never stored): ask getStreamIdForEventId first.`);
      const entries = await runCommand(() => redis.xrange(key, `(${lastEventId}`, '+'));
      for (const [id, fields] of entries) {
        const event = fieldsOf(fields);
        // Priming events carry no message (an empty object): they are never replayed; nor is one that is not a JSON object (another version's, or corrupted).
        if (event.s !== last.s || event.m === '{}') continue;
        const message = parseJson(event.m);
        if (isObject(message)) await sink.send(id, message as JSONRPCMessage);
        else connection.log('warn', `redis: event ${id} of session ${sessionId} is not a JSON-RPC message; it was not replayed`);
      }
      return last.s;
    },
    // Only the GET stream's events are published (the transport watches no other stream).
    async watch(streamId, listener) {
      if (streamId !== GET_STREAM_ID) throw new ToolwrightError(onlyGetStream('watched', streamId));
      const stop = await channels.watchSession(sessionId, (from, eventId, stream, message) => {
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
      if (streamId !== GET_STREAM_ID) throw new ToolwrightError(onlyGetStream('claimed', streamId));
      return runCommand(() => claimStream(redis, keys.getStream(sessionId), keys.session(sessionId), limits.getStreamClaimMs, keys.alive, lost));
    },
    // The events stay: other instances serve the session too. Ending the session (DELETE, expiry) removes them.
    close() {
      for (const stop of stops) stop();
      stops.clear();
    },
  };
}

/** Other streams' events are neither published nor claimed: the transport watches and claims the GET stream alone. */
function onlyGetStream(action: string, streamId: string): string {
  return `@toolwright/redis: only the GET stream ('${GET_STREAM_ID}') can be ${action}, not '${streamId.slice(0, 100)}'; a request's own stream lives on the instance that serves the request.`;
}

function fieldsOf(fields: string[]): { s: string; m: string } {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) out[fields[i]] = fields[i + 1];
  return { s: out.s ?? '', m: out.m ?? '{}' };
}
