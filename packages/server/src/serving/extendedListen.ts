import type { AuthInfo } from '@toolwright/core';
import { listenOpenerOf, type OpenedListen } from '../extensions/ListenOpener';
import type { McpServerHandle, ServerSetup } from './ServerFactory';
import { NowhereTransport } from './NowhereTransport';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';
const KEEP_ALIVE_MS = 15_000;
/** The filter keys of the protocol itself, which the SDK serves. */
const PROTOCOL_KEYS = new Set(['toolsListChanged', 'promptsListChanged', 'resourcesListChanged', 'resourceSubscriptions']);

/** Most streams with an extension part open at once per endpoint (as the SDK bounds its own listen streams). */
export const MAX_EXTENDED_LISTENS = 1024;

/** Streams of `subscriptions/listen` with an extension part, closed gracefully when the endpoint closes. */
export type ExtendedListens = Set<() => void>;

/**
 * Serves a 2026-07-28 `subscriptions/listen` whose filter names keys an extension serves (the
 * tasks extension's `taskIds`): the SDK serves the protocol's own keys as always, and its
 * stream is passed on with the extensions' notifications merged in: their honored keys join
 * the acknowledgement, their notifications follow it, and the stream stays open while either
 * part listens. Undefined (not a promise) when the request is no such listen (the caller goes
 * the SDK's way), or a promise of undefined when no extension takes it.
 * A refusal by an extension (a `ProtocolError`) answers the request as a JSON-RPC error.
 */
export function extendedListen(
  factory: (setup: ServerSetup) => McpServerHandle,
  body: unknown,
  authInfo: AuthInfo | undefined,
  open: ExtendedListens,
  sdk: () => Promise<Response>,
): Promise<Response | undefined> | undefined {
  // Decided at once, without a promise: every other 2026-07-28 request (each tools/call) asks first.
  const listen = listenOf(body);
  if (!listen || Object.keys(listen.filter).every((key) => PROTOCOL_KEYS.has(key))) return undefined;
  return serveExtendedListen(factory, listen, authInfo, open, sdk);
}

async function serveExtendedListen(
  factory: (setup: ServerSetup) => McpServerHandle,
  listen: NonNullable<ReturnType<typeof listenOf>>,
  authInfo: AuthInfo | undefined,
  open: ExtendedListens,
  sdk: () => Promise<Response>,
): Promise<Response | undefined> {
  if (open.size >= MAX_EXTENDED_LISTENS) return Response.json({ jsonrpc: '2.0', id: listen.id, error: { code: -32603, message: 'Subscription limit reached' } });
  // The app's extensions are wired to each server it makes: make one to ask them, and close it
  // (connected to nothing, so that closing it ends its connection's bookkeeping as any close does).
  const server = factory({ era: 'modern', ...(authInfo && { authInfo }) });
  const opener = listenOpenerOf(server);
  await server.connect(new NowhereTransport());
  await server.close();
  if (!opener) return undefined;
  const stream = new MergedStream(listen.id);
  let opened: OpenedListen | undefined;
  try {
    opened = await opener(listen.filter, { authInfo, meta: listen.meta, notify: stream.notify });
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data?: unknown };
    return Response.json({ jsonrpc: '2.0', id: listen.id, error: { code, message, ...(data !== undefined && { data }) } });
  }
  if (!opened) return undefined;
  const response = await sdk();
  if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    opened.close();
    return response;
  }
  return stream.respond(response, opened, open);
}

/** The id, filter and `_meta` of a `subscriptions/listen` request, or undefined for any other message. */
function listenOf(body: unknown): { id: string | number; filter: Readonly<Record<string, unknown>>; meta: Readonly<Record<string, unknown>> | undefined } | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { id, method, params } = body as { id?: unknown; method?: unknown; params?: { notifications?: unknown; _meta?: unknown } };
  if (method !== 'subscriptions/listen' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  const filter = params?.notifications;
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) return undefined;
  const meta = typeof params?._meta === 'object' && params._meta !== null ? (params._meta as Record<string, unknown>) : undefined;
  return { id, filter: filter as Record<string, unknown>, meta };
}

/** One merged stream: the SDK's frames passed on, the acknowledgement widened, the extensions' notifications after it. */
class MergedStream {
  private readonly encoder = new TextEncoder();
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private acknowledged = false;
  private readonly waiting: string[] = [];
  private closed = false;

  constructor(private readonly id: string | number) {}

  readonly notify = (method: string, params: Record<string, unknown>): void => {
    const meta = typeof params._meta === 'object' && params._meta !== null ? params._meta : {};
    const frame = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method, params: { ...params, _meta: { ...meta, [SUBSCRIPTION_ID]: this.id } } })}\n\n`;
    if (this.acknowledged) this.write(frame);
    else this.waiting.push(frame);
  };

  respond(sdk: Response, opened: OpenedListen, open: ExtendedListens): Response {
    const reader = sdk.body!.getReader();
    const decoder = new TextDecoder();
    const extending = Object.keys(opened.honored).length > 0;
    /** The SDK's graceful end of the stream, held while the extensions still listen. */
    let ending: string | undefined;
    let keepAlive: ReturnType<typeof setInterval> | undefined;
    const finish = (graceful: boolean) => {
      if (this.closed) return;
      if (graceful) this.write(ending ?? `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: this.id, result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: this.id } } })}\n\n`);
      this.closed = true;
      clearInterval(keepAlive);
      open.delete(close);
      opened.close();
      void reader.cancel().catch(() => undefined);
      try {
        this.controller?.close();
      } catch {
        // Already closed by the client.
      }
    };
    const close = () => finish(true);
    open.add(close);
    const pass = (frame: string) => {
      const data = frame.split('\n').find((line) => line.startsWith('data: '));
      if (!data) return this.write(`${frame}\n\n`);
      let message: { method?: string; id?: unknown; params?: { notifications?: Record<string, unknown> } };
      try {
        message = JSON.parse(data.slice(6)) as typeof message;
      } catch {
        return this.write(`${frame}\n\n`);
      }
      if (message.method === ACKNOWLEDGED && !this.acknowledged) {
        const params = { ...message.params, notifications: { ...message.params?.notifications, ...opened.honored } };
        this.write(`event: message\ndata: ${JSON.stringify({ ...message, params })}\n\n`);
        this.acknowledged = true;
        for (const waiting of this.waiting.splice(0)) this.write(waiting);
        return;
      }
      if (message.id === this.id && message.method === undefined) {
        // The SDK ends the stream: at once when it serves no key of the filter (held while the extensions listen), or at shutdown.
        ending = `${frame}\n\n`;
        if (!extending) finish(true);
        return;
      }
      this.write(`${frame}\n\n`);
    };
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
        keepAlive = setInterval(() => this.write(': keepalive\n\n'), KEEP_ALIVE_MS);
        (keepAlive as { unref?: () => void }).unref?.();
        void (async () => {
          let buffer = '';
          try {
            for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
              buffer += decoder.decode(chunk.value, { stream: true });
              let end: number;
              while ((end = buffer.indexOf('\n\n')) !== -1) {
                pass(buffer.slice(0, end));
                buffer = buffer.slice(end + 2);
              }
            }
          } catch {
            // The client went away: finish below.
          }
          // The SDK's stream ended: with its graceful end held, the extensions' part goes on; otherwise the stream is over.
          if (!(extending && ending && !this.closed)) finish(false);
        })();
      },
      cancel: () => finish(false),
    });
    const headers = new Headers(sdk.headers);
    return new Response(body, { status: sdk.status, headers });
  }

  private write(frame: string): void {
    if (this.closed || !this.controller) return;
    try {
      this.controller.enqueue(this.encoder.encode(frame));
    } catch {
      this.closed = true;
    }
  }
}
