import 'reflect-metadata';
import type { App } from '@toolwright/server';
import { jwtVerifier } from '@toolwright/server/auth';
import type { EventStore } from '@toolwright/server/http';

// #region production
export function serveInProduction(app: App) {
  const resource = 'https://notes.example.com/mcp';
  return app.listen({
    transport: 'http',
    host: '0.0.0.0', // behind a load balancer; the public name goes in allowedHosts
    port: Number(process.env.PORT ?? 3000),
    allowedHosts: ['notes.example.com'],
    stateless: true, // no sessions: any instance answers any request
    auth: {
      resource,
      authorizationServers: ['https://auth.example.com'],
      verifyToken: jwtVerifier({ issuer: 'https://auth.example.com', audience: resource, jwksUrl: 'https://auth.example.com/.well-known/jwks.json' }),
    },
    requestLogLevel: 'info', // one JSON line per request on stderr
    drainTimeoutMs: 20_000, // on SIGTERM: finish running calls for up to 20 s, then exit 0
  });
}
// #endregion production

// #region stateful
export function serveStateful(app: App) {
  return app.listen({
    transport: 'http',
    port: 3000,
    sessions: { idleTimeoutMs: 10 * 60_000, maxSessions: 5_000 },
  });
}
// #endregion stateful

// #region event-store
/** A key-value backend shared by every instance (Redis, a database table...). */
export interface SharedKv {
  append(list: string, value: string): Promise<number>; // returns the new length
  range(list: string, from: number): Promise<string[]>;
  drop(list: string): Promise<void>;
}

/** An EventStore for one session, keeping its events in a shared backend. */
export function sharedEventStore(kv: SharedKv) {
  return (sessionId: string): EventStore => {
    const list = `mcp:events:${sessionId}`; // one list per session: never mix sessions
    return {
      async storeEvent(streamId, message) {
        const length = await kv.append(list, JSON.stringify({ streamId, message }));
        return String(length); // the event id: its position in the list
      },
      async getStreamIdForEventId(eventId) {
        const [event] = await kv.range(list, Number(eventId) - 1);
        return event ? (JSON.parse(event) as { streamId: string }).streamId : undefined;
      },
      async replayEventsAfter(lastEventId, { send }) {
        const events = (await kv.range(list, Number(lastEventId) - 1)).map((e) => JSON.parse(e) as { streamId: string; message: never });
        const streamId = events[0].streamId;
        for (const [i, event] of events.slice(1).entries()) {
          if (event.streamId === streamId && 'jsonrpc' in (event.message as object)) await send(String(Number(lastEventId) + i + 1), event.message);
        }
        return streamId;
      },
      close: () => kv.drop(list),
    };
  };
}
// #endregion event-store
