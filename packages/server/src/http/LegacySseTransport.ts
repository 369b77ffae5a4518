import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@toolwright/core';
import type { RequestHeadersSource } from '../sdk/requestHeaders';
import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport } from '../sdk/sdk';
import { jsonRpcKind } from '../rpc/jsonRpcKind';
import { sendRpcError } from './respond';

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

  /** Headers of the POSTs whose requests are not answered yet. */
  private readonly headers = new Map<RequestId, IncomingHttpHeaders>();
  private closed = false;

  constructor(
    private readonly res: ServerResponse,
    /** Where clients POST their messages; the session id is appended. */
    private readonly messagesPath: string,
  ) {}

  async start(): Promise<void> {
    this.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' });
    this.res.write(`event: endpoint\ndata: ${this.messagesPath}?sessionId=${this.sessionId}\n\n`);
    this.res.once('close', () => void this.close());
  }

  /** Answers one POST of this session: the message goes to the server, the answer to the stream. */
  handlePost(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse, body: unknown): void {
    const kind = jsonRpcKind(body);
    if (kind === undefined) return sendRpcError(res, 400, -32600, 'Invalid Request: post one JSON-RPC message object with "jsonrpc": "2.0".');
    const message = body as JSONRPCMessage;
    if (kind === 'request') this.headers.set((message as { id: RequestId }).id, req.headers);
    res.writeHead(202).end('Accepted');
    this.onmessage?.(message, { authInfo: req.auth });
  }

  requestHeaders(id: RequestId): IncomingHttpHeaders | undefined {
    return this.headers.get(id);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    if (!('method' in message) && message.id !== undefined) this.headers.delete(message.id);
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.headers.clear();
    this.res.end();
    this.onclose?.();
  }
}
