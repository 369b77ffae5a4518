import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { AuthInfo } from '@toolwright/core';
import type { McpServerHandle, ServerSetup } from './ServerFactory';
import { isModernMessage } from '../sdk/isModernMessage';
import { callIdOf } from './callIdOf';
import { createModernFetch, type ModernFetchOptions } from './createModernFetch';
import { SHUTTING_DOWN } from '../rpc/shuttingDown';
import { responseClosed } from '../ground/responseClosed';

/** Answers the 2026-07-28 requests of one HTTP endpoint. */
export interface ModernHttp {
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, authInfo: AuthInfo | undefined): Promise<void>;
  /** Answers every call still running with an error (shutdown gave up waiting for it) and stops it; `subscriptions/listen` streams are left to `close`. */
  abandon(reason: string): void;
  close(): Promise<void>;
}

/** One request being answered. */
interface Exchange {
  readonly id: string | number;
  readonly res: ServerResponse;
  readonly aborted: AbortController;
  /** Answered by `abandon`: what the SDK still produces for it is dropped. */
  abandoned: boolean;
}

export interface ModernHttpOptions extends ModernFetchOptions {
  /** Most bytes a response may hold unsent (a client reading a long `subscriptions/listen` stream too slowly) before it is dropped. */
  maxBufferedBytes: number;
}

/**
 * The 2026-07-28 era of an endpoint on node: the runtime-neutral `createModernFetch` (the
 * SDK's per-request handler, one server instance per request) behind a node request and
 * response, with the calls shutdown may abandon. It runs behind `createHttpHandler`,
 * which has done every HTTP rule first (Host/Origin, auth, scopes, Accept, Content-Type,
 * body size) and hands over the parsed body. The SDK checks the envelope, the
 * MCP-Protocol-Version, Mcp-Method and Mcp-Name headers and the client's capabilities
 * (-32020, -32021, -32022), and serves `server/discover` and `subscriptions/listen`; the
 * resources a `subscriptions/listen` names pass the app's `resources/subscribe` checks first
 * (`listenRefusal`), so no caller hears of a resource it may not read.
 */
export function createModernHttp(factory: (setup: ServerSetup) => McpServerHandle, options: ModernHttpOptions): ModernHttp {
  // The calls are abandoned here, on node's response: the runtime-neutral handler tracks none.
  const handler = createModernFetch(factory, { ...options, abandonable: false });
  const calls = new Set<Exchange>();
  return {
    async handle(req, res, body, authInfo) {
      const aborted = new AbortController();
      const request = webRequestOf(req, aborted.signal);
      // A Host that makes no URL (`localhost:abc`, an unclosed `[::1`) or one with user information: RFC 9112 §3.2 answers 400.
      if (!request) return void res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BAD_HOST) }).end(BAD_HOST);
      // The client went away before its answer was out: stop the call. Aborting after a finished
      // answer would only make the SDK build an abort error per request.
      res.once('close', () => {
        if (!res.writableFinished) aborted.abort();
      });
      const id = callIdOf(body);
      const exchange: Exchange | undefined = id === undefined ? undefined : { id, res, aborted, abandoned: false };
      if (exchange) {
        calls.add(exchange);
        res.once('close', () => calls.delete(exchange));
      }
      let response: Response;
      try {
        response = await handler.fetch(request, body, authInfo);
      } catch (error) {
        // Abandoned (its answer is written) or the client went away: nothing more to send.
        if (exchange?.abandoned || responseClosed(res)) return;
        throw error;
      }
      if (exchange?.abandoned) return void response.body?.cancel().catch(() => undefined);
      await writeResponse(response, res, options.maxBufferedBytes, exchange);
    },
    abandon(reason) {
      for (const exchange of calls) {
        exchange.abandoned = true;
        calls.delete(exchange);
        const answer = JSON.stringify({ jsonrpc: '2.0', id: exchange.id, error: { code: SHUTTING_DOWN, message: reason } });
        const { res } = exchange;
        if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) }).end(answer);
        else if (!res.writableEnded && !responseClosed(res)) res.end(`event: message\ndata: ${answer}\n\n`);
        // Stops the handler: the SDK aborts the call's signal when its request is aborted.
        exchange.aborted.abort();
      }
    },
    async close() {
      await handler.close();
    },
  };
}

/**
 * Whether a POST is for the 2026-07-28 era: its message claims a version in `_meta`, or its
 * MCP-Protocol-Version header names a 2026 revision (a mismatch is then answered -32020).
 * A cheap look, so 2025-era requests pay nothing for the check.
 */
export function isModernHttpRequest(req: IncomingMessage, body: unknown): boolean {
  const header = req.headers['mcp-protocol-version'];
  return isModernMessage(body) || (typeof header === 'string' && header.trim() >= '2026-07-28');
}

/** The answer to a request whose Host header makes no URL. */
const BAD_HOST = JSON.stringify({
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Bad Request: the Host header is not a valid host name and port (RFC 9112 §3.2). Send the name and port the server is reached by.' },
  id: null,
});

/** The request line and headers as a web `Request` (the body is handed over already parsed); undefined when its Host makes no URL, or one with user information. */
function webRequestOf(req: IncomingMessage, signal: AbortSignal): Request | undefined {
  const scheme = (req.socket as TLSSocket | undefined)?.encrypted ? 'https' : 'http';
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `${scheme}://${req.headers.host ?? 'localhost'}`);
  } catch {
    return undefined;
  }
  // User information in the Host (`localhost:1@attacker.example`) makes a URL with credentials, which `Request` refuses: a bad Host too.
  if (url.username !== '' || url.password !== '') return undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // HTTP/2 pseudo-headers (`:authority`, `:path`), which node's compatibility API lists among the headers, are no header fields: `Headers` refuses their names.
    if (value === undefined || name.charCodeAt(0) === 0x3a /* : */) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(url, { method: req.method, headers, signal });
}

/**
 * Streams a web `Response` (JSON or SSE) to node's response; stops reading when the client
 * goes away. The SDK queues a stream's events without waiting for the client, so they are
 * read as they come and what the client has not taken yet is counted: a chunk that comes while
 * more than `maxBuffered` bytes are unsent (a client reading too slowly) drops the response, as
 * 2025-era streams are dropped.
 */
async function writeResponse(response: Response, res: ServerResponse, maxBuffered: number, exchange: Exchange | undefined): Promise<void> {
  const headers = Object.fromEntries(response.headers);
  // The SDK's `Connection: keep-alive` on an SSE stream: node keeps an HTTP/1.1 connection alive by itself, and HTTP/2 allows no Connection header.
  delete headers.connection;
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (exchange?.abandoned || res.writableEnded || responseClosed(res)) break;
      // More than maxBuffered still unsent when the next chunk comes: the client stopped reading (one larger answer still goes to one that reads).
      if (res.writableLength > maxBuffered) {
        res.destroy();
        break;
      }
      res.write(chunk.value);
    }
  } catch {
    // The client went away, or the handler ended the stream: nothing more to send.
  }
  if (!res.writableEnded && !responseClosed(res)) res.end();
  void reader.cancel().catch(() => undefined);
}
