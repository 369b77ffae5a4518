import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { AuthInfo } from '@toolwright/core';
import { createMcpHandler, type Server } from '@modelcontextprotocol/server';
import { isModernMessage } from './isModernMessage';

/** Answers the 2026-07-28 requests of one HTTP endpoint. */
export interface ModernHttp {
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, authInfo: AuthInfo | undefined): Promise<void>;
  close(): Promise<void>;
}

export interface ModernHttpOptions {
  /** Answer with one JSON body instead of an SSE stream. */
  jsonResponse: boolean;
  /** Tells the SDK's `subscriptions/listen` streams of every change; returns the function that stops it. */
  subscribe(notifier: ReturnType<typeof createMcpHandler>['notify']): () => void;
  onerror(error: Error): void;
}

/**
 * The 2026-07-28 era of an endpoint: the SDK's per-request handler (`createMcpHandler`, no
 * 2025-era traffic), one server instance per request. It runs behind `createHttpHandler`,
 * which has done every HTTP rule first (Host/Origin, auth, scopes, Accept, Content-Type,
 * body size) and hands over the parsed body. The SDK checks the envelope, the
 * MCP-Protocol-Version, Mcp-Method and Mcp-Name headers and the client's capabilities
 * (-32020, -32021, -32022), and serves `server/discover` and `subscriptions/listen`.
 */
export function createModernHttp(factory: (context: { era: 'modern' }) => Server, options: ModernHttpOptions): ModernHttp {
  const handler = createMcpHandler(() => factory({ era: 'modern' }), {
    legacy: 'reject',
    responseMode: options.jsonResponse ? 'json' : 'auto',
    onerror: options.onerror,
  });
  const unsubscribe = options.subscribe(handler.notify);
  return {
    async handle(req, res, body, authInfo) {
      const aborted = new AbortController();
      res.once('close', () => aborted.abort());
      const response = await handler.fetch(webRequestOf(req, aborted.signal), { parsedBody: body, ...(authInfo && { authInfo }) });
      await writeResponse(response, res);
    },
    async close() {
      unsubscribe();
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

/** The request line and headers as a web `Request`; the body is handed over already parsed. */
function webRequestOf(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const scheme = (req.socket as TLSSocket | undefined)?.encrypted ? 'https' : 'http';
  return new Request(new URL(req.url ?? '/', `${scheme}://${req.headers.host ?? 'localhost'}`), { method: req.method, headers, signal });
}

/** Streams a web `Response` (JSON or SSE) to node's response; stops reading when the client goes away. */
async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
  } catch {
    // The client went away, or the handler ended the stream: nothing more to send.
  }
  res.end();
}
