import type { Pending } from '../ground/Pending';
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@toolwright/core';
import type { RequestHeadersSource } from '../sdk/requestHeaders';
import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport } from '../sdk/sdk';
import { jsonRpcKind } from '../rpc/jsonRpcKind';
import { malformedAnswer } from '../rpc/malformedAnswer';
import { reusedRequestIdMessage } from '../rpc/reusedRequestId';
import { headerFields } from './headerFields';
import { sendRpcError } from './respond';
import { SHUTTING_DOWN } from '../rpc/shuttingDown';

/**
 * The server side of the HTTP+SSE transport of spec 2024-11-05: one `GET` stream carries
 * every message to the client, after an `endpoint` event naming the URL the client POSTs
 * its messages to (each answered 202). The SDK's v2 no longer ships one.
 */
export class LegacySseTransport implements Transport, RequestHeadersSource {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly sessionId = randomUUID();

  /** Headers of the POSTs whose requests are not answered yet (so also: the calls still running). */
  private readonly headers = new Map<RequestId, IncomingHttpHeaders>();
  private closed = false;

  constructor(
    private readonly res: ServerResponse,
    /** Where clients POST their messages; the session id is appended. */
    private readonly messagesPath: string,
    /** The running calls of every legacy stream of the endpoint, which its shutdown drains. */
    private readonly calls: Pending<string>,
    /** Most bytes left unsent (the client reads too slowly, or not at all) before the next message drops the stream. */
    private readonly maxBuffered = Infinity,
  ) {}

  async start(): Promise<void> {
    // No Connection header: node keeps an HTTP/1.1 connection alive by itself (and says so), and HTTP/2 allows none.
    this.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' });
    this.res.write(`event: endpoint\ndata: ${this.messagesPath}?sessionId=${this.sessionId}\n\n`);
    this.res.once('close', () => void this.close());
  }

  /** Answers one POST of this session: the message goes to the server, the answer to the stream. */
  handlePost(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse, body: unknown): void {
    const kind = jsonRpcKind(body);
    if (kind === undefined) {
      sendRpcError(res, 400, -32600, 'Invalid Request: post one JSON-RPC message object with "jsonrpc": "2.0".');
      // A malformed answer to one of the server's questions ends the wait for it, as an error.
      const failed = malformedAnswer(body);
      if (failed) this.onmessage?.(failed as JSONRPCMessage);
      return;
    }
    const message = body as JSONRPCMessage;
    if (kind === 'request') {
      const { id } = message as { id: RequestId };
      // Answers are routed by id: a second request with the id of one still running could never be answered.
      if (this.headers.has(id)) return sendRpcError(res, 400, -32600, reusedRequestIdMessage(id));
      this.headers.set(id, headerFields(req));
      this.calls.add(this.callKey(id));
    }
    // The SDK answers no request the client cancelled: nobody may wait for it.
    if (kind === 'notification') this.forgetCancelled(message as { method: string; params?: { requestId?: unknown } });
    res.writeHead(202).end('Accepted');
    this.onmessage?.(message, { authInfo: req.auth });
  }

  requestHeaders(id: RequestId): IncomingHttpHeaders | undefined {
    return this.headers.get(id);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    if (!('method' in message) && message.id !== undefined) {
      // Answered already (abandoned at shutdown, or cancelled): one response per request.
      if (!this.settle(message.id)) return;
    }
    // More than the bound still unsent when the next message comes: the client stopped reading. Dropping the
    // stream ends the session (this transport has no resumption); one message larger than the bound still goes to a client that reads.
    if (this.res.writableLength > this.maxBuffered) {
      this.res.destroy();
      return;
    }
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** Answers every call still running with an error (shutdown gave up waiting for it); later answers to them are dropped. */
  async abandon(reason: string): Promise<void> {
    for (const id of [...this.headers.keys()]) await this.send({ jsonrpc: '2.0', id, error: { code: SHUTTING_DOWN, message: reason } } as JSONRPCMessage);
  }

  private forgetCancelled(notification: { method: string; params?: { requestId?: unknown } }): void {
    const id = notification.params?.requestId;
    if (notification.method === 'notifications/cancelled' && (typeof id === 'string' || typeof id === 'number')) this.settle(id);
  }

  /** A call answered, cancelled or abandoned: no longer running. */
  private settle(id: RequestId): boolean {
    this.calls.delete(this.callKey(id));
    return this.headers.delete(id);
  }

  private callKey(id: RequestId): string {
    return `${this.sessionId}\n${typeof id}:${String(id)}`;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Its calls can no longer be answered: a shutdown waiting for them stops waiting.
    for (const id of this.headers.keys()) this.calls.delete(this.callKey(id));
    this.headers.clear();
    this.res.end();
    this.onclose?.();
  }
}
