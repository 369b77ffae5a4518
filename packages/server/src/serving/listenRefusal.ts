import type { AuthInfo } from '@toolwright/core';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage, type Transport } from '../sdk/sdk';
import type { McpServerHandle, ServerSetup } from './ServerFactory';

/** A JSON-RPC error, as a refused `resources/subscribe` answers it. */
export interface RefusedSubscription {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** The JSON-RPC code of a method the server does not serve (no `resources.subscribe` capability). */
const METHOD_NOT_FOUND = -32601;

/**
 * The resource URIs a 2026-07-28 `subscriptions/listen` request asks to hear of, if any.
 * The SDK serves the request itself and would accept any URI: these are checked first.
 */
export function listenedResources(body: unknown): readonly unknown[] | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } };
  if (method !== 'subscriptions/listen') return undefined;
  const uris = params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) && uris.length > 0 ? uris : undefined;
}

/**
 * Whether the caller may hear of every URI it names: each one goes through the app's own
 * `resources/subscribe` (existence, scopes, roles, guards, control characters, the count), on
 * a server made for this caller alone and closed after. Answers the first refusal, or
 * undefined when all pass (or the app takes no subscriptions: the SDK then drops them).
 */
export async function listenRefusal(factory: (setup: ServerSetup) => McpServerHandle, uris: readonly unknown[], authInfo: AuthInfo | undefined): Promise<RefusedSubscription | undefined> {
  const server = factory({ era: 'legacy', ...(authInfo && { authInfo }) });
  const link = new Link();
  await server.connect(link);
  try {
    const init = await link.request('initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'toolwright-listen-check', version: '1' } });
    if (init.error) return init.error;
    link.notify('notifications/initialized');
    // Each URI once: a request naming one URI a hundred thousand times would otherwise run as many subscribes.
    for (const uri of new Set(uris)) {
      const answer = await link.request('resources/subscribe', { uri });
      if (answer.error?.code === METHOD_NOT_FOUND) return undefined;
      if (answer.error) return answer.error;
    }
    return undefined;
  } finally {
    await server.close();
  }
}

/** The JSON-RPC error answering a `subscriptions/listen` refused for one of its resources (-32002 goes to 2026-07-28 clients as -32602, as the SDK sends it). */
export function listenRefusalMessage(request: unknown, refused: RefusedSubscription): JSONRPCMessage {
  const id = (request as { id?: unknown }).id;
  const error = { code: refused.code === -32002 ? -32602 : refused.code, message: refused.message, ...(refused.data !== undefined && { data: refused.data }) };
  return { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error } as JSONRPCMessage;
}

/** The client end of an in-process exchange with one server: requests in, their answers back. */
class Link implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private next = 1;
  private readonly waiting = new Map<number, (answer: { error?: RefusedSubscription }) => void>();

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    const { id } = message as { id?: unknown };
    if (typeof id === 'number' && (message as { method?: unknown }).method === undefined) this.waiting.get(id)?.(message as { error?: RefusedSubscription });
  }

  async close(): Promise<void> {
    for (const resolve of this.waiting.values()) resolve({ error: { code: -32603, message: 'Internal error: the server closed before it answered.' } });
    this.waiting.clear();
    this.onclose?.();
  }

  request(method: string, params: Record<string, unknown>): Promise<{ error?: RefusedSubscription }> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, (answer) => {
        this.waiting.delete(id);
        resolve(answer);
      });
      this.onmessage?.({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
    });
  }

  notify(method: string): void {
    this.onmessage?.({ jsonrpc: '2.0', method } as JSONRPCMessage);
  }
}
