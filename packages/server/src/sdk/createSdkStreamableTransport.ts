import type { ServerResponse } from 'node:http';
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { EventStore, JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/server';
import { jsonRpcKind } from '../rpc/jsonRpcKind';
import { SHUTTING_DOWN } from '../rpc/shuttingDown';

export interface SdkStreamableTransportSettings {
  /** Stateful: the session's id. Stateless: undefined. */
  sessionId: string | undefined;
  jsonResponse: boolean;
  eventStore: EventStore | undefined;
  retryMs: number | undefined;
}

/** The SDK's transport, with what shutdown needs of it. */
export type SdkStreamableTransport = NodeStreamableHTTPServerTransport & {
  /** Answers every request still open with an error (shutdown gave up waiting); later answers to them are dropped. */
  abandon(reason: string): Promise<void>;
};

/** The requests of one POST, from the POST until each is answered or cancelled. */
interface Post {
  unsettled: number;
  /** One of its requests the client cancelled, if any: the SDK sends no answer for it. */
  cancelled: RequestId | undefined;
  /** JSON responses: the answers sent so far, which the POST carries when the SDK's own answer would never come. */
  readonly answers: JSONRPCMessage[];
  readonly res: ServerResponse;
}

/**
 * The SDK's own Streamable HTTP transport (`@modelcontextprotocol/node`), the fallback behind
 * `httpTransport: 'sdk'`. Loaded only when asked for: it brings hono and its node adapter.
 * It keeps no list of open requests that shutdown could answer, so the requests it hands
 * the server and the answers the server sends are counted here. It also holds a POST until
 * every request of it is answered, and the server answers no cancelled request: a POST whose
 * requests are all settled, one of them cancelled (in the same batch or a later POST), is ended
 * here, as `NodeStreamableTransport` does: its SSE stream is closed, or its JSON response
 * carries the answers there were (202 with no body when there were none).
 */
export function createSdkStreamableTransport(settings: SdkStreamableTransportSettings): SdkStreamableTransport {
  const { NodeStreamableHTTPServerTransport: SdkTransport } = require('@modelcontextprotocol/node') as typeof import('@modelcontextprotocol/node');
  const id = settings.sessionId;
  const transport = new SdkTransport({
    sessionIdGenerator: id === undefined ? undefined : () => id,
    enableJsonResponse: settings.jsonResponse,
    eventStore: settings.eventStore,
    retryInterval: settings.retryMs,
  }) as SdkStreamableTransport;

  const open = new Set<RequestId>();
  const posts = new Map<RequestId, Post>();
  let deliver: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  const receive = (message: JSONRPCMessage, extra?: MessageExtraInfo): void => {
    if ('method' in message) {
      if ('id' in message) open.add(message.id);
      else if (message.method === 'notifications/cancelled') open.delete((message.params as { requestId?: RequestId } | undefined)?.requestId as RequestId);
    }
    deliver?.(message, extra);
    // Only a notification cancels: a request of that name (it has an id) cancels nothing.
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) settleCancelled((message.params as { requestId?: RequestId } | undefined)?.requestId);
  };
  // The server installs its reader on connect; the SDK's transport gets it wrapped, so each request is
  // counted first. Reading the property gives what was installed (a reader that wraps it in turn
  // must not get the counting wrapper back, or each message would loop through both).
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => deliver,
    set: (handler: typeof deliver) => {
      deliver = handler;
      Object.getOwnPropertyDescriptor(Object.getPrototypeOf(transport), 'onmessage')!.set!.call(transport, handler && receive);
    },
  });
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    if (!('method' in message) && 'id' in message && message.id !== undefined) {
      // One response per request: an answer to a request already answered (abandoned) is dropped.
      if (!open.delete(message.id)) return;
      const post = posts.get(message.id);
      if (post) {
        posts.delete(message.id);
        if (settings.jsonResponse) post.answers.push(message);
        await send(message, options);
        if (--post.unsettled === 0 && post.cancelled !== undefined) end(post);
        return;
      }
    }
    return send(message, options);
  };
  const handle = transport.handleRequest.bind(transport);
  transport.handleRequest = async (req, res, parsedBody) => {
    if (req.method === 'POST') track(parsedBody, res);
    return handle(req, res, parsedBody);
  };
  transport.abandon = async (reason) => {
    for (const request of [...open]) await transport.send({ jsonrpc: '2.0', id: request, error: { code: SHUTTING_DOWN, message: reason } } as JSONRPCMessage);
  };
  return transport;

  /** Records the requests of a POST until each is answered or cancelled (or its client is gone). */
  function track(body: unknown, res: ServerResponse): void {
    const ids: RequestId[] = [];
    for (const message of Array.isArray(body) ? body : [body]) if (jsonRpcKind(message) === 'request') ids.push((message as { id: RequestId }).id);
    if (ids.length === 0) return;
    const post: Post = { unsettled: ids.length, cancelled: undefined, answers: [], res };
    for (const request of ids) posts.set(request, post);
    res.once('close', () => {
      for (const request of ids) if (posts.get(request) === post) posts.delete(request);
    });
  }

  function settleCancelled(request: RequestId | undefined): void {
    const post = request === undefined ? undefined : posts.get(request);
    if (!post) return;
    posts.delete(request!);
    post.cancelled ??= request;
    if (--post.unsettled === 0) end(post);
  }

  /** Ends a POST whose requests are all settled, one of them cancelled. */
  function end(post: Post): void {
    // Ends the SDK's wait for the POST: its SSE stream, or in JSON mode the answer it holds back (the SDK then forgets it).
    transport.closeSSEStream(post.cancelled!);
    if (!settings.jsonResponse || post.res.headersSent) return;
    const headers: Record<string, string> = id === undefined ? {} : { 'mcp-session-id': id };
    if (post.answers.length === 0) return void post.res.writeHead(202, headers).end();
    const body = JSON.stringify(post.answers.length === 1 ? post.answers[0] : post.answers);
    post.res.writeHead(200, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  }
}
