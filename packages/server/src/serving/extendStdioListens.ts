import type { AuthInfo } from '@toolwright/core';
import { listenOpenerOf, type OpenedListen } from '../extensions/ListenOpener';
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '../sdk/sdk';
import { MAX_EXTENDED_LISTENS } from './extendedListen';
import type { McpServerHandle, ServerSetup } from './ServerFactory';
import { NowhereTransport } from './NowhereTransport';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';
/** The filter keys of the protocol itself, which the SDK serves. */
const PROTOCOL_KEYS = new Set(['toolsListChanged', 'promptsListChanged', 'resourcesListChanged', 'resourceSubscriptions']);

/** One `subscriptions/listen` of the connection with an extension part open. */
interface ExtendedStream {
  /** Undefined while the extensions open their parts (their first notifications wait meanwhile). */
  opened: OpenedListen | undefined;
  acknowledged: boolean;
  /** The extensions' notifications sent before the SDK acknowledged the stream, in order. */
  readonly waiting: JSONRPCMessage[];
}

/**
 * Serves the extensions' filter keys of 2026-07-28 `subscriptions/listen` requests on a stdio
 * connection (the tasks extension's `taskIds`), as `extendedListen` does over HTTP: the SDK's
 * stdio entry serves the protocol's own keys as always, the extensions' honored keys join its
 * acknowledgement, and their notifications follow it (stamped with the subscription id). Over
 * stdio the SDK keeps a stream open until the client cancels it (`notifications/cancelled`)
 * or the connection ends (its graceful answer to each listen): either closes the extensions'
 * part too. An extension's refusal answers the listen as a JSON-RPC
 * error. Wraps the transport's `onmessage` (installed by the SDK) and `send`.
 */
export function extendStdioListens(transport: Transport, factory: (setup: ServerSetup) => McpServerHandle, onerror: (error: Error) => void): void {
  const serve = transport.onmessage;
  if (!serve) return;
  const streams = new Map<string | number, ExtendedStream>();
  /** Listens being opened (the extensions answer asynchronously): a cancel that arrives meanwhile closes the stream once open. */
  const opening = new Map<string | number, { cancelled: boolean }>();
  const send = transport.send.bind(transport);
  const stamped = (id: string | number, method: string, params: Record<string, unknown>): JSONRPCMessage => {
    const meta = typeof params._meta === 'object' && params._meta !== null ? params._meta : {};
    return { jsonrpc: '2.0', method, params: { ...params, _meta: { ...meta, [SUBSCRIPTION_ID]: id } } } as JSONRPCMessage;
  };

  transport.send = async (message, options) => {
    const { id, method, params } = message as { id?: string | number; method?: string; params?: { notifications?: Record<string, unknown>; _meta?: Record<string, unknown> } };
    if (method === ACKNOWLEDGED) {
      const sid = params?._meta?.[SUBSCRIPTION_ID] as string | number | undefined;
      const stream = sid === undefined ? undefined : streams.get(sid);
      if (stream && !stream.acknowledged) {
        stream.acknowledged = true;
        await send({ ...message, params: { ...params, notifications: { ...params?.notifications, ...stream.opened?.honored } } } as JSONRPCMessage, options);
        for (const waiting of stream.waiting.splice(0)) await send(waiting);
        return;
      }
    } else if (method === undefined && id !== undefined && streams.has(id)) {
      // The stream's end (the SDK's graceful close of the connection): the extensions' part ends with it.
      close(id);
    }
    return send(message, options);
  };

  const close = (id: string | number) => {
    const stream = streams.get(id);
    if (!stream) return;
    streams.delete(id);
    stream.opened?.close();
  };
  const closing = transport.onclose;
  transport.onclose = () => {
    for (const id of [...streams.keys()]) close(id);
    closing?.();
  };

  transport.onmessage = (message, extra) => {
    const listen = extendedListenOf(message);
    if (!listen) {
      const cancelled = cancelledRequest(message);
      if (cancelled !== undefined) {
        const pending = opening.get(cancelled);
        if (pending) pending.cancelled = true;
        close(cancelled);
      }
      return serve(message, extra);
    }
    const pending = { cancelled: false };
    opening.set(listen.id, pending);
    void open(listen, extra)
      .then(() => pending.cancelled && close(listen.id))
      .catch(onerror)
      .finally(() => opening.delete(listen.id));
  };

  const open = async (listen: ListenRequest, extra: MessageExtraInfo | undefined): Promise<void> => {
    const { id } = listen;
    if (streams.size >= MAX_EXTENDED_LISTENS || streams.has(id)) {
      await send({
        jsonrpc: '2.0',
        id,
        error: { code: -32603, message: streams.has(id) ? 'A subscription with this id is open: use a new request id.' : 'Subscription limit reached' },
      } as JSONRPCMessage);
      return;
    }
    const authInfo: AuthInfo | undefined = extra?.authInfo as AuthInfo | undefined;
    // The app's extensions are wired to each server it makes: make one to ask them, and close it.
    const server = factory({ era: 'modern', ...(authInfo && { authInfo }) });
    const opener = listenOpenerOf(server);
    // Connected to nothing, so that closing it ends its connection's bookkeeping as any close does.
    await server.connect(new NowhereTransport());
    await server.close();
    if (!opener) return serve(listen.message, extra);
    // In place before the extensions open: each sends the state of its tasks at once, which waits for the acknowledgement.
    const stream: ExtendedStream = { opened: undefined, acknowledged: false, waiting: [] };
    streams.set(id, stream);
    try {
      stream.opened = await opener(listen.filter, { authInfo, meta: listen.meta, notify: (method, params) => notify(id, method, params) });
    } catch (error) {
      streams.delete(id);
      const { code, message, data } = error as { code: number; message: string; data?: unknown };
      await send({ jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined && { data }) } } as JSONRPCMessage);
      return;
    }
    if (!stream.opened) streams.delete(id);
    serve(listen.message, extra);
  };

  const notify = (id: string | number, method: string, params: Record<string, unknown>) => {
    const stream = streams.get(id);
    const message = stamped(id, method, params);
    if (!stream) return;
    if (stream.acknowledged) void send(message).catch(onerror);
    else stream.waiting.push(message);
  };
}

interface ListenRequest {
  readonly id: string | number;
  readonly filter: Readonly<Record<string, unknown>>;
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  readonly message: JSONRPCMessage;
}

/** A `subscriptions/listen` whose filter names a key beyond the protocol's own; undefined for any other message. */
function extendedListenOf(message: JSONRPCMessage): ListenRequest | undefined {
  const { id, method, params } = message as { id?: unknown; method?: unknown; params?: { notifications?: unknown; _meta?: unknown } };
  if (method !== 'subscriptions/listen' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  const filter = params?.notifications;
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) return undefined;
  if (Object.keys(filter).every((key) => PROTOCOL_KEYS.has(key))) return undefined;
  const meta = typeof params?._meta === 'object' && params._meta !== null ? (params._meta as Record<string, unknown>) : undefined;
  return { id, filter: filter as Record<string, unknown>, meta, message };
}

/** The request id a `notifications/cancelled` names, if the message is one (a request of that name, with an id, cancels nothing). */
function cancelledRequest(message: JSONRPCMessage): string | number | undefined {
  const { method, params } = message as { method?: unknown; params?: { requestId?: unknown } };
  if (method !== 'notifications/cancelled' || 'id' in message) return undefined;
  const id = params?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
