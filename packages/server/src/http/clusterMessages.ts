import type { SessionChange, SessionRecord } from './Cluster';
import type { RestoreRequest, SessionTransport } from './HttpSession';

/** Notifications a cluster delivers itself (`Cluster.publish`): a session's local copies must not send them too. */
const FANNED_OUT = new Set(['notifications/tools/list_changed', 'notifications/resources/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/updated']);

/** The requests that bring a fresh server to a session's state (see `SessionTransport.restore`). */
export function restoreRequests(record: SessionRecord): RestoreRequest[] {
  const requests: RestoreRequest[] = [{ method: 'initialize', params: record.initialize }];
  if (record.logLevel) requests.push({ method: 'logging/setLevel', params: { level: record.logLevel } });
  // Subscriptions are not replayed: resource updates reach a session through the cluster, which keeps them.
  return requests;
}

/** What the requests of a POST change in their session, to record for every instance. */
export function sessionChangesOf(body: unknown): SessionChange[] {
  const changes: SessionChange[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    const m = message as { id?: unknown; method?: unknown; params?: { level?: unknown; uri?: unknown } } | null;
    if (!m || m.id === undefined || typeof m.method !== 'string') continue;
    if (m.method === 'logging/setLevel' && typeof m.params?.level === 'string') changes.push({ logLevel: m.params.level });
    else if (m.method === 'resources/subscribe' && typeof m.params?.uri === 'string') changes.push({ subscribe: m.params.uri });
    else if (m.method === 'resources/unsubscribe' && typeof m.params?.uri === 'string') changes.push({ unsubscribe: m.params.uri });
  }
  return changes;
}

/** The ids a `SessionTransport.restore` gives the requests it replays (see `restoreId`): their changes are recorded already. */
const RESTORED = 'toolwright-restore-';

/** The id of the `index`th request a transport's `restore` replays. */
export function restoreId(index: number, method: string): string {
  return `${RESTORED}${index}-${method}`;
}

/** Whether a message id is one `restoreId` made: the answer goes to no client. */
export function isRestoreId(id: unknown): boolean {
  return typeof id === 'string' && id.startsWith(RESTORED);
}

/**
 * Records in the cluster what a session's requests change in it (log level, subscriptions),
 * once its server accepted them: a change is written when the request's success response
 * goes out, before the client reads it, so a request the server refused (unknown resource,
 * missing scope, a guard) records nothing. If `record` rejects, the client gets an error
 * instead of the success: the store's own message when it refused the change by its caps
 * (`refused: true` on the error), else that the shared store could not record it. Call after
 * the server connected to the transport.
 */
export function recordAcceptedChanges(transport: SessionTransport, record: (change: SessionChange) => Promise<void>): void {
  const pending = new Map<string | number, SessionChange>();
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = (message as { id?: unknown }).id;
    const [change] = sessionChangesOf(message);
    if (change && (typeof id === 'number' || (typeof id === 'string' && !isRestoreId(id)))) pending.set(id, change);
    // A cancelled request gets no answer: its change is forgotten now, or it would stay for the session's life.
    // Only a notification cancels: a request of that name (it has an id) is answered -32601 and cancels nothing.
    else if (pending.size > 0 && id === undefined && (message as { method?: unknown }).method === 'notifications/cancelled')
      pending.delete((message as { params?: { requestId?: string | number } }).params?.requestId as string | number);
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    const m = message as { id?: unknown; method?: unknown; result?: unknown };
    const change = m.method === undefined && (typeof m.id === 'string' || typeof m.id === 'number') ? pending.get(m.id) : undefined;
    if (!change) return send(message, options);
    const id = m.id as string | number;
    pending.delete(id);
    if (m.result === undefined) return send(message, options);
    try {
      await record(change);
    } catch (error) {
      const refused = (error as { refused?: unknown } | null)?.refused === true;
      const answer = refused
        ? { code: -32602, message: (error as Error).message }
        : { code: -32603, message: 'Internal error: the shared session store could not record this change (it is unreachable). Retry shortly.' };
      return send({ jsonrpc: '2.0', id, error: answer } as typeof message, options);
    }
    return send(message, options);
  };
}

/** Drops the list changes and resource updates a session's local server sends on its own: the cluster sends them once, from wherever they happened. */
export function leaveFanOutToCluster(transport: SessionTransport): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const method = (message as { method?: unknown }).method;
    if (typeof method === 'string' && FANNED_OUT.has(method) && options?.relatedRequestId === undefined) return Promise.resolve();
    return send(message, options);
  };
}

/** The id a server-to-client request of instance `instance` carries across the cluster: the answer names who asked. */
const roundTripId = (instance: string, id: string | number) => `tw:${instance}:${typeof id === 'number' ? 'n' : 's'}:${id}`;
const ROUND_TRIP_ID = /^tw:([^:]+):([ns]):(.*)$/s;

/**
 * Makes a session's server-to-client requests answerable through any instance: their ids
 * name this instance on the way out (and back to the server's own on the way in), so the
 * instance a client's answer reaches can relay it here (see `foreignAnswers`). Call after
 * the server connected to the transport.
 */
export function routeRoundTrips(transport: SessionTransport, instance: string): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as { id?: string | number; method?: unknown; params?: { requestId?: string | number } };
    if (typeof m.method === 'string' && m.id !== undefined) return send({ ...message, id: roundTripId(instance, m.id) } as typeof message, options);
    // The server gives up on its own request (timeout, the call was cancelled): name it as the client knows it.
    if (m.method === 'notifications/cancelled' && m.params?.requestId !== undefined && options?.relatedRequestId === undefined) {
      return send({ ...message, params: { ...m.params, requestId: roundTripId(instance, m.params.requestId) } } as typeof message, options);
    }
    return send(message, options);
  };
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const m = message as { id?: unknown; method?: unknown };
    const own = m.method === undefined && typeof m.id === 'string' ? ROUND_TRIP_ID.exec(m.id) : null;
    if (own && own[1] === instance) message = { ...message, id: own[2] === 'n' ? Number(own[3]) : own[3] } as typeof message;
    receive?.(message, extra);
  };
}

/** Splits a POST's messages into what this instance serves and the answers to requests another instance made. */
export function foreignAnswers(body: unknown, instance: string): { body: unknown; foreign: { instance: string; message: Record<string, unknown> }[] } {
  const messages = Array.isArray(body) ? body : [body];
  const foreign: { instance: string; message: Record<string, unknown> }[] = [];
  const kept = messages.filter((message) => {
    const m = message as { id?: unknown; method?: unknown } | null;
    const owner = m && m.method === undefined && typeof m.id === 'string' ? ROUND_TRIP_ID.exec(m.id) : null;
    if (!owner || owner[1] === instance) return true;
    foreign.push({ instance: owner[1], message: message as Record<string, unknown> });
    return false;
  });
  if (foreign.length === 0) return { body, foreign };
  return { body: Array.isArray(body) ? kept : kept[0], foreign };
}

/** The client's cancellations in a POST (notifications only: a request of that name cancels nothing): the call they cancel may run on any instance. */
export function cancellationsOf(body: unknown): Record<string, unknown>[] {
  return (Array.isArray(body) ? body : [body]).filter((m) => (m as { method?: unknown } | null)?.method === 'notifications/cancelled' && !('id' in m)) as Record<string, unknown>[];
}
