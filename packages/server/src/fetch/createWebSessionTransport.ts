import { ToolwrightError } from '@toolwright/core';
import { GET_STREAM_ID } from '../http/Cluster';
import { isRestoreId, restoreId } from '../http/clusterMessages';
import type { EventStore } from '../http/EventStore';
import type { SessionTransport } from '../http/HttpSession';
import { sessionRules } from '../http/sessionRules';
import { createWebStandardTransport, SDK_GET_STREAM_ID, type WebStandardTransport, type WebStandardTransportSettings } from '../sdk/createWebStandardTransport';
import type { JSONRPCMessage } from '../sdk/sdk';
import { jsonAnswer } from './jsonAnswer';
import { PrimingFailures } from './PrimingFailures';
import { requestIdsOf } from './requestIdsOf';
import { trackSessionRequests } from './trackSessionRequests';
import { whenBodyEnds } from './whenBodyEnds';

/** A 2025-era session's transport over web `Request`/`Response`, able to serve a session opened on another instance. */
export type WebSessionTransport = WebStandardTransport & Required<Pick<SessionTransport, 'restore' | 'deliver' | 'abandon'>>;

const RESTORE_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * The SDK's web-standard transport for one session (`createWebStandardTransport`), with what
 * a cluster needs of it, as `NodeStreamableTransport` has on node:
 *
 * - `restore` replays a session's `initialize` (and log level) into the fresh server of a local
 *   copy, through the transport's own `handleRequest`, and drops the answers;
 * - `deliver` hands the server a message of its client that reached another instance;
 * - the session's event store sees the GET stream under `GET_STREAM_ID`, the id a cluster
 *   stores fanned-out notifications under; and while a GET stream is open here, the events
 *   other instances store for it (`EventStore.watch`) go out on it, with their ids.
 */
export function createWebSessionTransport(settings: WebStandardTransportSettings & { sessionId: string }): WebSessionTransport {
  const priming = new PrimingFailures();
  /** While `restore` replays the session's `initialize`: the one POST a copy takes before its session is initialized. */
  let replayingInitialize = false;
  const shared = settings.eventStore
    ? sharedStore(
        settings.eventStore,
        priming,
        (error) => transport.onerror?.(error),
        () => replayingInitialize,
      )
    : undefined;
  const transport = createWebStandardTransport({ ...settings, eventStore: shared?.store }) as WebSessionTransport;
  // The SDK's own: a cluster wraps `send` (round trips, fan-out) once the server connects, and an event watched here must not go through that again.
  const send = transport.send.bind(transport);
  const handle = transport.handleRequest.bind(transport);
  const report = (error: unknown) => transport.onerror?.(error as Error);
  const watchGet = shared?.inner.watch
    ? watcher(
        shared.inner,
        (eventId, message) => {
          shared.known.set(message, eventId);
          send(message).catch(report);
        },
        report,
      )
    : undefined;

  async function post(message: Record<string, unknown>, inSession: boolean): Promise<void> {
    const headers: Record<string, string> = inSession ? { ...RESTORE_HEADERS, 'mcp-session-id': settings.sessionId } : RESTORE_HEADERS;
    const response = await handle(new Request('http://localhost/mcp', { method: 'POST', headers, body: JSON.stringify(message) }), { parsedBody: message });
    // Read to its end: the server has answered then.
    await response.arrayBuffer();
    if (response.status >= 300) {
      throw new ToolwrightError(
        `Toolwright: could not restore session ${settings.sessionId} from its record: the replayed ${message.method as string} was answered HTTP ${response.status}. Please report it.`,
      );
    }
  }

  transport.restore = async (requests) => {
    for (const [index, request] of requests.entries()) {
      const initialize = request.method === 'initialize';
      replayingInitialize = initialize;
      try {
        await post({ jsonrpc: '2.0', id: restoreId(index, request.method), method: request.method, ...(request.params && { params: request.params }) }, !initialize);
      } finally {
        replayingInitialize = false;
      }
      if (initialize) await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, true);
    }
  };
  transport.deliver = (message) => transport.onmessage?.(message);
  if (shared) {
    transport.handleRequest = async (request, options) => {
      if (request.method === 'POST') {
        // A priming event not stored: the SDK keeps the POST's stream, which ends here (its requests never reached the server).
        return priming.answer(await handle(request, options), () => {
          for (const id of requestIdsOf(options.parsedBody)) transport.closeSSEStream(id);
        });
      }
      if (request.method !== 'GET') return handle(request, options);
      // The node listener's answer, not the SDK's "Invalid event ID format", which names no fix.
      if (await namesNoEvent(shared.store, request)) return jsonAnswer(sessionRules.unknownEventId);
      if (!watchGet) return handle(request, options);
      const hold = await watchGet();
      let response: Response;
      try {
        response = await handle(request, options);
      } catch (error) {
        hold.release(false);
        throw error;
      }
      let streaming = response.status === 200 && response.body !== null;
      // The SDK answered it as the one GET stream of its copy here: the claim decides whether it is the one of the cluster.
      const claim = streaming && shared.inner.claim ? await claimGet(shared.inner, request, () => transport.closeStandaloneSSEStream()) : undefined;
      if (claim instanceof Response) {
        void response.body!.cancel().catch(() => {});
        response = claim;
        streaming = false;
      }
      hold.release(streaming);
      const release = claim instanceof Response ? undefined : claim;
      return streaming ? whenBodyEnds(response, () => (hold.stop(), release?.())) : response;
    };
  }
  trackSessionRequests(transport, settings);
  return transport;
}

/**
 * The session's event store as the SDK's transport is given it: the GET stream under
 * `GET_STREAM_ID`; the answers to replayed (`restore`) requests not kept, nor the priming event of
 * the replayed `initialize`'s stream (`replayingInitialize`), which no client reads; an event a watch
 * brought (stored already, by another instance) given its own id again, not stored twice; a
 * priming event that could not be stored reported to `priming`, whose answer is the node
 * listener's; and any other event that could not be stored sent without an id, as the node
 * listener sends it (the SDK writes no `id:` for an empty one), the failure reported to `report`.
 */
function sharedStore(
  inner: EventStore,
  priming: PrimingFailures,
  report: (error: Error) => void,
  replayingInitialize: () => boolean,
): { store: EventStore; inner: EventStore; known: WeakMap<object, string> } {
  const known = new WeakMap<object, string>();
  const toStore = (streamId: string) => (streamId === SDK_GET_STREAM_ID ? GET_STREAM_ID : streamId);
  const toSdk = (streamId: string) => (streamId === GET_STREAM_ID ? SDK_GET_STREAM_ID : streamId);
  let dropped = 0;
  const store: EventStore = {
    async storeEvent(streamId, message) {
      const id = known.get(message);
      if (id !== undefined) {
        known.delete(message);
        return id;
      }
      // A priming event carries no message (an empty object).
      const primes = !('jsonrpc' in message);
      if (isRestoreId((message as { id?: unknown }).id) || (primes && replayingInitialize())) return `toolwright-restored-${++dropped}`;
      if (primes) return priming.store(() => inner.storeEvent(toStore(streamId), message));
      try {
        return await inner.storeEvent(toStore(streamId), message);
      } catch (error) {
        report(new ToolwrightError(`the event store failed to store an event (${(error as Error)?.message}); it was sent without an id and cannot be replayed.`, { cause: error }));
        return '';
      }
    },
    ...(inner.getStreamIdForEventId && {
      getStreamIdForEventId: async (eventId: string) => {
        const streamId = await inner.getStreamIdForEventId!(eventId);
        return streamId === undefined ? undefined : toSdk(streamId);
      },
    }),
    replayEventsAfter: async (lastEventId, sink) => toSdk(await inner.replayEventsAfter(lastEventId, sink)),
    close: () => inner.close?.(),
  };
  return { store, inner, known };
}

/**
 * Watches the session's GET stream while a GET request is answered here and while its stream
 * lasts. Events that arrive while a GET is being answered (a replay reads the store meanwhile)
 * are held, then sent once its stream is in place: the SDK skips those it replayed.
 */
function watcher(store: EventStore, push: (eventId: string, message: JSONRPCMessage) => void, report: (error: unknown) => void): () => Promise<{ release(streaming: boolean): void; stop(): void }> {
  let users = 0;
  let unwatch: Promise<() => void> | undefined;
  let holders = 0;
  let held: { eventId: string; message: JSONRPCMessage }[] = [];
  const onEvent = (eventId: string, message: JSONRPCMessage) => (holders > 0 ? void held.push({ eventId, message }) : push(eventId, message));
  const stop = () => {
    if (--users > 0) return;
    const current = unwatch;
    unwatch = undefined;
    void current?.then((end) => end());
  };
  return async () => {
    users++;
    holders++;
    unwatch ??= store.watch!(GET_STREAM_ID, onEvent).catch((error: unknown) => {
      report(error);
      return () => {};
    });
    await unwatch;
    let stopped = false;
    const stopOnce = () => {
      if (stopped) return;
      stopped = true;
      stop();
    };
    return {
      release(streaming) {
        if (--holders === 0) {
          const events = held;
          held = [];
          for (const event of events) push(event.eventId, event.message);
        }
        if (!streaming) stopOnce();
      },
      stop: stopOnce,
    };
  };
}

/**
 * Whether the request's Last-Event-ID names no event of `store` (where the store can tell). A
 * store that fails to look it up is left to the SDK's replay, which answers that failure.
 */
async function namesNoEvent(store: EventStore, request: Request): Promise<boolean> {
  const lastEventId = request.headers.get('last-event-id');
  if (!lastEventId || !store.getStreamIdForEventId) return false;
  try {
    return !(await store.getStreamIdForEventId(lastEventId));
  } catch {
    return false;
  }
}

/**
 * The claim of the GET stream across the instances (`EventStore.claim`) for a GET the SDK has just
 * answered with a stream: the function that gives it back, none when that stream is a POST's
 * (resumed with Last-Event-ID), or the answer instead, where another instance holds it: the SDK's
 * own 409 for a second stream (503 when the store could not claim).
 */
async function claimGet(store: EventStore, request: Request, lost: () => void): Promise<(() => void) | Response | undefined> {
  const lastEventId = request.headers.get('last-event-id');
  try {
    if (lastEventId && (await store.getStreamIdForEventId?.(lastEventId)) !== GET_STREAM_ID) return undefined;
    const release = await store.claim!(GET_STREAM_ID, lost);
    if (release) return release;
  } catch (error) {
    return jsonAnswer(sessionRules.claimFailed((error as Error)?.message ?? String(error)));
  }
  const message = lastEventId ? 'Conflict: Stream already has an active connection' : 'Conflict: Only one SSE stream is allowed per session';
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status: 409, headers: { 'Content-Type': 'application/json' } });
}
