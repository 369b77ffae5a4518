import type { IncomingMessage } from 'node:http';
import type { Implementation } from '@modelcontextprotocol/server';
import { plainCallEnvelope } from './plainCallEnvelope';
import type { DirectToolCall } from './registerToolHandlers';

/** Kinds of plain calls remembered, at most: a client sends the same envelope and headers with every call of a tool. */
const MAX_KINDS = 256;

/**
 * The lane of one endpoint's plain 2026-07-28 `tools/call` POSTs (see `createModernHttp`): a
 * call answered without the SDK's per-request handler, which would make a server instance,
 * a transport and web `Request`/`Response` objects, and run zod over the message, for an
 * answer that is the same byte for byte.
 *
 * Nothing the SDK checks is judged here. A request's kind is everything those checks read:
 * its `_meta` envelope as sent, the tool's name, Content-Type, Accept and every `Mcp-*`
 * header. The first request of a kind goes the SDK's way, and once the SDK answers it with a
 * result (its checks passed), every request of that kind may take the lane.
 */
export class ModernHttpCalls {
  private readonly kinds = new Set<string>();
  /** What the SDK stamps into each result's `_meta`, as the server instances it made say. */
  serverInfo: Implementation | undefined;

  constructor(readonly direct: DirectToolCall) {}

  /** The kind of a plain call (see above); undefined for any other request. */
  static kindOf(req: IncomingMessage, body: unknown): string | undefined {
    if (req.method !== 'POST' || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
    if (method !== 'tools/call') return undefined;
    const envelope = plainCallEnvelope(params);
    if (envelope === undefined || typeof params?.name !== 'string') return undefined;
    const headers: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!.toLowerCase();
      if (name.startsWith('mcp-') || name === 'content-type' || name === 'accept') headers.push(name, req.rawHeaders[i + 1]!);
    }
    return JSON.stringify([envelope, params.name, headers]);
  }

  /** Whether the SDK has answered a request of this kind with a result. */
  knows(kind: string): boolean {
    return this.kinds.has(kind);
  }

  /** The SDK answered a request of this kind with a result. */
  learn(kind: string): void {
    if (this.kinds.size >= MAX_KINDS) this.kinds.delete(this.kinds.values().next().value!);
    this.kinds.add(kind);
  }
}
