import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { ConfigError, ToolwrightError, type AuthInfo } from '@toolwright/core';
import type { RequestHeadersSource } from '../sdk/requestHeaders';
import type { JSONRPCMessage, MessageExtraInfo, RequestId, TransportSendOptions } from '../sdk/sdk';
import { headerFields } from './headerFields';
import type { EventStore } from './EventStore';
import { GET_STREAM_ID } from './Cluster';
import { restoreId } from './clusterMessages';
import type { RestoreRequest, SessionTransport } from './HttpSession';
import { jsonRpcKind } from '../rpc/jsonRpcKind';
import { invalidMessageError } from '../rpc/invalidMessageError';
import { reusedRequestId, reusedRequestIdMessage } from '../rpc/reusedRequestId';
import { sendAnswer, sendJson, sendRpcError } from './respond';
import { sessionRules } from './sessionRules';
import { SseConnection } from './SseConnection';
import { SHUTTING_DOWN } from '../rpc/shuttingDown';
import { responseClosed } from '../ground/responseClosed';

export interface NodeStreamableTransportOptions {
  /** The session this transport serves (stateful mode). Omit it for stateless mode: one transport per request. */
  sessionId?: string;
  /** Answer POSTs with one `application/json` body; request-related notifications and requests are then dropped. */
  jsonResponse?: boolean;
  /** Keeps SSE events for replay after `Last-Event-ID`, and enables priming events (see `sessionRules.primes`). */
  eventStore?: EventStore;
  /** The `retry:` (ms) sent in priming events. Default: none (the client's own default). */
  retryMs?: number;
  /** A `: keepalive` comment on open SSE streams this often (ms); < 1 disables. Default 15000. */
  keepAliveMs?: number;
  /** Most bytes an SSE stream may hold unsent (a client not reading) before it is dropped. Default 16 MiB. */
  maxBufferedBytes?: number;
  /**
   * Put before each POST stream's id. Instances sharing one event store (a cluster) give
   * each transport a distinct prefix, so two instances' streams of one session never share an id.
   */
  streamIdPrefix?: string;
}

/** The requests of one POST, and where their responses go. */
interface Exchange {
  readonly streamId: string;
  /** The POST's headers, for `ctx.headers` (see `requestHeaders`). */
  readonly headers: IncomingHttpHeaders;
  /** Requests not answered yet. */
  remaining: number;
  /** SSE mode: the connection events go to now; undefined while the client is away (it may resume). */
  sse?: SseConnection;
  /** JSON mode: the response to write once every request is answered. */
  json?: { readonly res: ServerResponse; readonly ids: RequestId[]; readonly responses: JSONRPCMessage[] };
}

type Request = IncomingMessage & { auth?: AuthInfo };

const STANDALONE = GET_STREAM_ID;
const MAX_BATCH = 100;
/** What the spec says a server assumes when a request carries no MCP-Protocol-Version. */
const DEFAULT_VERSION = '2025-03-26';

/**
 * A Streamable HTTP server transport (spec 2025-11-25) written directly against node's
 * `IncomingMessage`/`ServerResponse`. The SDK's `StreamableHTTPServerTransport` converts
 * every request to a web `Request` and every answer back from a web `Response` stream,
 * which costs more CPU per call than the call itself; this one writes SSE frames straight
 * to the socket, and a short exchange in one write.
 *
 * It implements the SDK's `Transport`, so an SDK `Server` connects to it as usual. It
 * expects what `createHttpHandler` does before it: Host/Origin, auth, Accept/Content-Type,
 * body parsing and size, session lookup and MCP-Protocol-Version checks. What is left here
 * is the SDK transport's own behaviour: message validation, batches, initialize rules,
 * SSE or JSON answers routed by request id, the standalone GET stream (one per session),
 * resumability through an `EventStore`, and DELETE.
 */
export class NodeStreamableTransport implements SessionTransport, RequestHeadersSource {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly sessionId: string | undefined;

  private readonly jsonResponse: boolean;
  private readonly eventStore: EventStore | undefined;
  private readonly retryMs: number | undefined;
  private readonly keepAliveMs: number;
  private readonly maxBufferedBytes: number;
  private readonly exchanges = new Map<string, Exchange>();
  private readonly byRequest = new Map<RequestId, Exchange>();
  private readonly streamIdPrefix: string;
  /** Requests handed to the server by `restore`, whose answers nobody receives. */
  private readonly restoring = new Map<RequestId, () => void>();
  private standalone: SseConnection | undefined;
  /** Stops `EventStore.watch` of the GET stream (shared stores), while one is attached. */
  private unwatch: Promise<() => void> | undefined;
  /** While a GET stream is being replayed: the watched events that arrived meanwhile. */
  private caught: { eventId: string; message: JSONRPCMessage }[] | undefined;
  private keepAlive: NodeJS.Timeout | undefined;
  private streamCount = 0;
  private started = false;
  private initialized = false;
  private handled = false;
  private closed = false;

  constructor(options: NodeStreamableTransportOptions = {}) {
    this.sessionId = options.sessionId;
    this.jsonResponse = options.jsonResponse === true;
    this.eventStore = this.jsonResponse ? undefined : options.eventStore;
    this.retryMs = options.retryMs;
    this.keepAliveMs = options.keepAliveMs ?? 15_000;
    this.maxBufferedBytes = options.maxBufferedBytes ?? 16 * 1024 * 1024;
    this.streamIdPrefix = options.streamIdPrefix ?? '';
  }

  /**
   * Brings the server of a session opened on another instance to that session's state:
   * hands it `requests` (the session's initialize, then what the client changed since, such
   * as `logging/setLevel`) as if the client had sent them, and drops the answers. From then
   * on the session's requests are served as if it had been initialized here.
   */
  async restore(requests: readonly RestoreRequest[]): Promise<void> {
    for (const request of requests) {
      const id = restoreId(this.restoring.size, request.method);
      await new Promise<void>((resolve) => {
        this.restoring.set(id, resolve);
        this.onmessage?.({ jsonrpc: '2.0', id, method: request.method, ...(request.params && { params: request.params }) } as JSONRPCMessage);
      });
      this.restoring.delete(id);
      if (request.method === 'initialize') {
        this.initialized = true;
        this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
      }
    }
  }

  async start(): Promise<void> {
    if (this.started) throw new ConfigError('NodeStreamableTransport: already started. Connect each transport to one Server, once.');
    this.started = true;
  }

  /** Answers one HTTP request of this session (or, stateless, the one request of this transport). */
  async handleRequest(req: Request, res: ServerResponse, parsedBody?: unknown): Promise<void> {
    if (this.sessionId === undefined) {
      if (this.handled) throw new ConfigError('NodeStreamableTransport: a stateless transport serves one request. Create a new transport (and Server) per request.');
      this.handled = true;
    }
    if (this.closed) return sendRpcError(res, 404, -32001, 'Session not found: it was closed. Start a new session with initialize.');
    switch (req.method) {
      case 'POST':
        return this.handlePost(req, res, parsedBody);
      case 'GET':
        return this.handleGet(req, res);
      case 'DELETE':
        res.writeHead(200, this.sessionHeader()).end();
        return this.close();
      default:
        return sendRpcError(res, 405, -32000, 'Method not allowed: use POST, GET or DELETE.', { Allow: 'GET, POST, DELETE' });
    }
  }

  /**
   * A message of this session's client that reached another instance, relayed here by a
   * cluster (an answer to this server's request, a cancellation): handled as if posted here.
   */
  deliver(message: JSONRPCMessage): void {
    if (this.closed) return;
    this.onmessage?.(message);
    this.settleCancelled(message);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const isResponse = 'result' in message || 'error' in message;
    const related = isResponse ? (message as { id?: RequestId }).id : options?.relatedRequestId;
    if (related !== undefined && this.restoring.has(related)) {
      if (isResponse) this.restoring.get(related)!();
      return;
    }
    if (related === undefined) {
      if (isResponse) throw new ToolwrightError('NodeStreamableTransport: a response without a request id cannot be sent (there is no request to answer).');
      return this.sendStandalone(message);
    }
    const exchange = this.byRequest.get(related);
    if (!exchange) {
      if (this.closed) return;
      // The server cancels its own request (sampling, elicitation) made for a call the client cancelled: that call's stream is gone, the GET stream is left.
      if ((message as { method?: string }).method === 'notifications/cancelled') return this.sendStandalone(message);
      // A notification for a request already answered: nobody can receive it.
      if (!(isResponse || 'id' in message)) return;
      throw new ToolwrightError(
        `NodeStreamableTransport: request ${String(related)} is not open on this ${this.sessionId ? `session (${this.sessionId})` : 'request'}; it was answered or never arrived.`,
      );
    }
    if (!this.jsonResponse) {
      const eventId = await this.store(exchange.streamId, message);
      const sse = exchange.sse;
      if (sse && !(eventId !== undefined && sse.replayed?.has(eventId))) sse.event(message, eventId);
    }
    // Only the first response to each id counts (byRequest still maps it to this exchange).
    if (isResponse) this.settle(related, exchange, message);
  }

  /** The headers of the POST that carried request `id`, while it is open. */
  requestHeaders(id: RequestId): IncomingHttpHeaders | undefined {
    return this.byRequest.get(id)?.headers;
  }

  /**
   * Answers every request still open with an error (shutdown gave up waiting for it), so
   * its client hears back instead of seeing its stream cut; later answers are not sent.
   */
  async abandon(reason: string): Promise<void> {
    for (const id of [...this.byRequest.keys()]) await this.send({ jsonrpc: '2.0', id, error: { code: SHUTTING_DOWN, message: reason } });
  }

  /** Ends the SSE stream of a request (the client resumes with Last-Event-ID): the SDK hands this to handlers as `ctx.http.closeSSE`. */
  closeSSEStream(requestId: RequestId): void {
    const exchange = this.byRequest.get(requestId);
    if (!exchange?.sse) return;
    exchange.sse.end();
    exchange.sse = undefined;
  }

  /** Ends the GET stream (the client reconnects, resuming after its last event). */
  readonly closeStandaloneSSEStream = (): void => {
    this.standalone?.end();
    this.standalone = undefined;
  };

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopWatching();
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    this.closeStandaloneSSEStream();
    for (const exchange of this.exchanges.values()) {
      exchange.sse?.end();
      const res = exchange.json?.res;
      if (res && !res.headersSent && !responseClosed(res)) sendAnswer(res, sessionRules.closedBeforeAnswer);
    }
    this.exchanges.clear();
    this.byRequest.clear();
    this.onclose?.();
  }

  private async handlePost(req: Request, res: ServerResponse, body: unknown): Promise<void> {
    if (body === undefined) return sendRpcError(res, 400, -32700, 'Parse error: the POST has no JSON body. Send one JSON-RPC message.');
    const batch = Array.isArray(body);
    const messages: unknown[] = batch ? body : [body];
    if (batch && (messages.length === 0 || messages.length > MAX_BATCH)) {
      return sendRpcError(res, 400, -32600, `Invalid Request: a batch must hold 1 to ${MAX_BATCH} messages.`);
    }
    const ids: RequestId[] = [];
    let initialize: { params: { protocolVersion: string } } | undefined;
    for (const message of messages) {
      const kind = jsonRpcKind(message);
      if (kind === undefined) {
        return sendJson(res, 400, invalidMessageError(message));
      }
      if (kind === 'request') {
        const m = message as { id: RequestId; method: string; params?: { protocolVersion?: unknown } };
        ids.push(m.id);
        if (m.method === 'initialize' && typeof m.params?.protocolVersion === 'string') initialize = m as typeof initialize;
      }
    }
    const reused = reusedRequestId(ids, this.byRequest);
    if (reused !== undefined) return sendRpcError(res, 400, -32600, reusedRequestIdMessage(reused));
    if (initialize) {
      if (this.initialized && this.sessionId !== undefined) {
        return sendRpcError(res, 400, -32600, 'Invalid Request: Server already initialized. This session is set up; start another with an initialize POST without Mcp-Session-Id.');
      }
      if (messages.length > 1) return sendRpcError(res, 400, -32600, 'Invalid Request: Only one initialization request is allowed, alone in its POST.');
      this.initialized = true;
    } else if (this.sessionId !== undefined && !this.initialized) {
      return sendRpcError(res, 400, -32000, 'Bad Request: Server not initialized. Send initialize first.');
    }

    const info: MessageExtraInfo = { authInfo: req.auth };
    if (ids.length === 0) {
      for (const message of messages) {
        this.onmessage?.(message as JSONRPCMessage, info);
        this.settleCancelled(message);
      }
      res.writeHead(202).end();
      return;
    }

    const exchange: Exchange = { streamId: this.streamIdPrefix + String(++this.streamCount), headers: headerFields(req), remaining: ids.length };
    this.exchanges.set(exchange.streamId, exchange);
    for (const id of ids) this.byRequest.set(id, exchange);
    if (this.jsonResponse) {
      exchange.json = { res, ids, responses: [] };
      for (const message of messages) {
        this.onmessage?.(message as JSONRPCMessage, info);
        if (batch) this.settleCancelled(message);
      }
      return;
    }

    const sse = new SseConnection(res, this.sseHeaders(), this.maxBufferedBytes);
    exchange.sse = sse;
    res.once('close', () => {
      if (exchange.sse === sse) exchange.sse = undefined;
    });
    const version = initialize ? initialize.params.protocolVersion : (headerOf(req, 'mcp-protocol-version') ?? DEFAULT_VERSION);
    const resumable = this.eventStore !== undefined && sessionRules.primes(version);
    if (resumable) {
      try {
        sse.priming(await this.eventStore!.storeEvent(exchange.streamId, {} as JSONRPCMessage), this.retryMs);
      } catch (error) {
        this.forget(exchange);
        this.onerror?.(error as Error);
        // Nothing was handed to the server yet: the client can send the same request again.
        return sendAnswer(res, sessionRules.primingFailed((error as Error)?.message ?? String(error)));
      }
    }
    sse.flushSoon();
    this.armKeepAlive();
    for (const message of messages) {
      const id = (message as { id?: RequestId }).id;
      const extra: MessageExtraInfo =
        resumable && id !== undefined && 'method' in (message as object) ? { ...info, closeSSEStream: () => this.closeSSEStream(id), closeStandaloneSSEStream: this.closeStandaloneSSEStream } : info;
      this.onmessage?.(message as JSONRPCMessage, extra);
      if (batch) this.settleCancelled(message);
    }
  }

  private async handleGet(req: Request, res: ServerResponse): Promise<void> {
    const lastEventId = headerOf(req, 'last-event-id');
    if (this.eventStore && lastEventId) return this.replay(lastEventId, res);
    const claimed = this.standalone?.open ? false : await this.claimStandalone(res);
    if (claimed === undefined) return;
    if (!claimed) return sendRpcError(res, 409, -32000, 'Conflict: Only one SSE stream is allowed per session. Close the other GET stream first.');
    const sse = new SseConnection(res, this.sseHeaders(), this.maxBufferedBytes);
    sse.flush();
    this.attach(STANDALONE, sse, res);
    this.watchStandalone();
  }

  /** A reconnect with Last-Event-ID: the missed events of that stream, then its live events. */
  private async replay(lastEventId: string, res: ServerResponse): Promise<void> {
    const store = this.eventStore!;
    let caught: { eventId: string; message: JSONRPCMessage }[] | undefined;
    try {
      let known: string | undefined;
      if (store.getStreamIdForEventId) {
        known = await store.getStreamIdForEventId(lastEventId);
        if (!known) return sendAnswer(res, sessionRules.unknownEventId);
        const claimed = (known === STANDALONE ? this.standalone : this.exchanges.get(known)?.sse)?.open ? false : known !== STANDALONE || (await this.claimStandalone(res));
        if (claimed === undefined) return;
        if (!claimed) return sendRpcError(res, 409, -32000, 'Conflict: Stream already has an active connection. Close it before resuming.');
      }
      // Buffered until the replay is complete, so a failing store can still answer 500.
      const sse = new SseConnection(res, this.sseHeaders(), this.maxBufferedBytes);
      const replayed = new Set<string>();
      // A shared store: listen before reading, so what another instance stores meanwhile is not missed.
      if (store.watch && known === STANDALONE) {
        caught = this.caught = [];
        this.watchStandalone();
        await this.unwatch;
      }
      const streamId = await store.replayEventsAfter(lastEventId, {
        send: async (eventId, message) => {
          sse.event(message, eventId);
          replayed.add(eventId);
        },
      });
      if (this.closed) return sendRpcError(res, 404, -32001, 'Session not found: it was closed. Start a new session with initialize.');
      sse.replayed = replayed;
      if (caught) for (const event of caught) if (!replayed.has(event.eventId)) sse.event(event.message, event.eventId);
      sse.flush();
      this.attach(streamId, sse, res);
    } catch (error) {
      this.onerror?.(error as Error);
      if (!res.headersSent) return sendRpcError(res, 500, -32000, 'Internal error: replaying events failed. The server log has the details.');
      res.end();
    } finally {
      if (this.caught === caught) this.caught = undefined;
      if (caught && !this.standalone) this.stopWatching();
    }
  }

  /**
   * Claims the GET stream for the connection `res` across the instances sharing the event store
   * (`EventStore.claim`), given back when `res` closes: false while another instance's connection
   * holds it; true with a store that does not claim. Undefined once it answered 503 itself (the
   * store could not claim).
   */
  private async claimStandalone(res: ServerResponse): Promise<boolean | undefined> {
    const store = this.eventStore;
    if (!store?.claim) return true;
    let release: (() => void) | undefined;
    try {
      release = await store.claim(STANDALONE, this.closeStandaloneSSEStream);
    } catch (error) {
      this.onerror?.(error as Error);
      sendAnswer(res, sessionRules.claimFailed((error as Error)?.message ?? String(error)));
      return undefined;
    }
    if (!release) return false;
    if (responseClosed(res)) release();
    else res.once('close', release);
    return true;
  }

  /** Makes `sse` the live connection of a stream (the GET stream or a POST's). */
  private attach(streamId: string, sse: SseConnection, res: ServerResponse): void {
    if (streamId === STANDALONE) {
      if (this.standalone !== sse) this.standalone?.end();
      this.standalone = sse;
      res.once('close', () => {
        if (this.standalone !== sse) return;
        this.standalone = undefined;
        this.stopWatching();
      });
    } else {
      const exchange = this.exchanges.get(streamId);
      // Every request of that POST is answered and its events were just replayed: nothing more will come.
      if (!exchange) return sse.end();
      if (exchange.sse !== sse) exchange.sse?.end();
      exchange.sse = sse;
      res.once('close', () => {
        if (exchange.sse === sse) exchange.sse = undefined;
      });
    }
    this.armKeepAlive();
  }

  /** Shared stores: the events other instances store for the GET stream go out on it too, while it is attached here. */
  private watchStandalone(): void {
    const store = this.eventStore;
    if (!store?.watch || this.unwatch || this.closed) return;
    this.unwatch = store
      .watch(STANDALONE, (eventId, message) => {
        if (this.caught) return void this.caught.push({ eventId, message });
        const sse = this.standalone;
        if (sse && !sse.replayed?.has(eventId)) sse.event(message, eventId);
      })
      .catch((error) => {
        this.onerror?.(error as Error);
        this.unwatch = undefined;
        return () => {};
      });
  }

  private stopWatching(): void {
    const unwatch = this.unwatch;
    this.unwatch = undefined;
    void unwatch?.then((stop) => stop());
  }

  private async sendStandalone(message: JSONRPCMessage): Promise<void> {
    // Stored even with no GET stream open, so a client that reconnects gets it.
    const eventId = await this.store(STANDALONE, message);
    const sse = this.standalone;
    if (sse && !(eventId !== undefined && sse.replayed?.has(eventId))) sse.event(message, eventId);
  }

  /** Marks a request answered (or cancelled: no message); the last one ends its POST's answer. */
  private settle(id: RequestId, exchange: Exchange, response: JSONRPCMessage | undefined): void {
    if (this.byRequest.get(id) !== exchange) return;
    this.byRequest.delete(id);
    if (exchange.json && response) exchange.json.responses[exchange.json.ids.indexOf(id)] = response;
    if (--exchange.remaining === 0) this.finish(exchange);
  }

  /**
   * The SDK's `Protocol` sends nothing for a request the client cancelled, so without this
   * its SSE stream (and the session's open-request count) would stay open until the client
   * hung up. The answer is over once the cancellation has been handed to the `Protocol`.
   */
  private settleCancelled(message: unknown): void {
    const m = message as { method?: unknown; params?: { requestId?: unknown } };
    // Only a notification cancels: a request of that name (it has an id) is answered -32601 and cancels nothing.
    if (m.method !== 'notifications/cancelled' || 'id' in m) return;
    const id = m.params?.requestId as RequestId | undefined;
    const exchange = id === undefined ? undefined : this.byRequest.get(id);
    if (exchange) this.settle(id!, exchange, undefined);
  }

  /**
   * Stores an event for replay. A failing store must not lose the live event nor leave the
   * request unanswered, so the event then goes out without an id (not resumable).
   */
  private async store(streamId: string, message: JSONRPCMessage): Promise<string | undefined> {
    if (!this.eventStore) return undefined;
    try {
      return await this.eventStore.storeEvent(streamId, message);
    } catch (error) {
      this.onerror?.(
        new ToolwrightError(`NodeStreamableTransport: the event store failed to store an event (${(error as Error)?.message}); it was sent without an id and cannot be replayed.`, { cause: error }),
      );
      return undefined;
    }
  }

  private finish(exchange: Exchange): void {
    this.exchanges.delete(exchange.streamId);
    const json = exchange.json;
    if (!json) {
      exchange.sse?.end();
      return;
    }
    if (json.res.headersSent || responseClosed(json.res)) return;
    const responses = json.responses.filter((r) => r !== undefined);
    // Every request was cancelled: there is nothing to answer with.
    if (responses.length === 0) return void json.res.writeHead(202, this.sessionHeader()).end();
    const text = JSON.stringify(responses.length === 1 ? responses[0] : responses);
    json.res.writeHead(200, { ...this.sessionHeader(), 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  }

  private forget(exchange: Exchange): void {
    this.exchanges.delete(exchange.streamId);
    for (const [id, owner] of this.byRequest) if (owner === exchange) this.byRequest.delete(id);
  }

  private sseHeaders(): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' };
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    return headers;
  }

  private sessionHeader(): OutgoingHttpHeaders {
    return this.sessionId === undefined ? {} : { 'mcp-session-id': this.sessionId };
  }

  /** One timer per transport pings every open stream; it stops itself once none is left. */
  private armKeepAlive(): void {
    if (this.keepAlive || !(this.keepAliveMs >= 1) || this.closed) return;
    this.keepAlive = setInterval(
      () => {
        let open = false;
        for (const sse of this.openStreams()) {
          // A timer callback that throws would take the whole process down: end that stream instead.
          try {
            sse.comment('keepalive');
            open = true;
          } catch (error) {
            this.onerror?.(error as Error);
            try {
              sse.end();
            } catch {
              // The response is unusable; dropping the stream is all that is left to do.
            }
          }
        }
        if (!open) {
          clearInterval(this.keepAlive);
          this.keepAlive = undefined;
        }
      },
      Math.min(this.keepAliveMs, 2 ** 31 - 1),
    );
    this.keepAlive.unref();
  }

  private *openStreams(): Iterable<SseConnection> {
    if (this.standalone?.open) yield this.standalone;
    for (const exchange of this.exchanges.values()) if (exchange.sse?.open) yield exchange.sse;
  }
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}
