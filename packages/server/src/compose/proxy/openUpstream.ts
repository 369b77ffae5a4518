import type { AuthInfo } from '@toolwright/core';
import { Client, getDefaultEnvironment, StdioClientTransport, StreamableHTTPClientTransport, type ClientCapabilities, type ClientTransport } from '../../sdk/proxyClient';
import type { ListKind } from '../../surface/Catalog';
import { limitMessages } from './limitMessages';
import type { ProxyOptions } from './ProxyOptions';
import { DEFAULT_MAX_MESSAGE_BYTES, UpstreamTooLargeError } from './UpstreamTooLargeError';

/** What the proxy does with what an upstream session sends on its own: questions for the downstream client, log lines, list changes. */
export interface UpstreamRelay {
  elicit(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  sample(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  listRoots(): Promise<Record<string, unknown>>;
  /**
   * Each notification of the upstream, as it arrives: before the SDK client handles it, and so
   * in order with responses (the client hands notifications to its handlers a turn later than
   * responses, which would lose the progress and log lines sent just before a result).
   */
  notification(method: string, params: Record<string, unknown>): void;
  /** Only the proxy's own session follows list changes. */
  changed?(kind: ListKind): void;
  resourceUpdated?(uri: string): void;
  /** The upstream connection ended (the process exited, the HTTP session was dropped). */
  closed(): void;
  /** The upstream sent a message over `maxMessageBytes`: the connection ends next (`closed`). */
  tooLarge?(error: UpstreamTooLargeError): void;
}

/** Who the session speaks for: read before each upstream HTTP request, so a per-caller token stays current. */
export type CallerOf = () => AuthInfo | undefined;

const CLIENT_INFO = { name: 'toolwright-proxy', version: '1' };

/**
 * Opens one session with the upstream: a v2 `Client` over Streamable HTTP (with the configured
 * and per-caller headers, never the downstream's) or over stdio (a new child process), its
 * protocol revision negotiated or pinned, and the relay's handlers for the upstream's requests.
 */
export async function openUpstream(options: ProxyOptions, capabilities: ClientCapabilities, caller: CallerOf, relay: UpstreamRelay): Promise<Client> {
  const protocol = options.protocol ?? 'auto';
  const client = new Client(CLIENT_INFO, {
    capabilities,
    versionNegotiation: { mode: protocol === 'auto' ? 'auto' : protocol === '2025-11-25' ? 'legacy' : { pin: protocol } },
    ...(relay.changed && {
      listChanged: {
        tools: { autoRefresh: false, debounceMs: 20, onChanged: () => relay.changed!('tools') },
        prompts: { autoRefresh: false, debounceMs: 20, onChanged: () => relay.changed!('prompts') },
        resources: { autoRefresh: false, debounceMs: 20, onChanged: () => relay.changed!('resources') },
      },
    }),
  });
  if (capabilities.elicitation) client.setRequestHandler('elicitation/create', (request) => relay.elicit(request.params as Record<string, unknown>) as never);
  if (capabilities.sampling) client.setRequestHandler('sampling/createMessage', (request) => relay.sample(request.params as Record<string, unknown>) as never);
  if (capabilities.roots) client.setRequestHandler('roots/list', () => relay.listRoots() as never);
  if (relay.resourceUpdated) client.setNotificationHandler('notifications/resources/updated', (notification) => relay.resourceUpdated!(notification.params.uri));
  client.onclose = () => relay.closed();
  const limit = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const tooLarge = (error: UpstreamTooLargeError) => {
    relay.tooLarge?.(error);
    void client.close().catch(() => undefined);
  };
  // The proxy's own progress tokens are unknown to the client, which reports them here: not a fault. The stdio
  // transport reports a line over its maxBufferSize here too, then closes (its only sign is the message).
  client.onerror = (error) => {
    if (/exceeded maximum size/.test(error.message)) relay.tooLarge?.(new UpstreamTooLargeError(limit));
  };
  const transport = transportFor(options, caller, limit, tooLarge);
  // The client calls a handler already set on the transport before its own, for each message.
  transport.onmessage = (message) => {
    const m = message as { method?: unknown; id?: unknown; params?: unknown };
    if (typeof m.method === 'string' && m.id === undefined && typeof m.params === 'object' && m.params !== null) relay.notification(m.method, m.params as Record<string, unknown>);
  };
  await client.connect(transport);
  return client;
}

function transportFor(options: ProxyOptions, caller: CallerOf, limit: number, tooLarge: (error: UpstreamTooLargeError) => void): ClientTransport {
  if ('command' in options) {
    return new StdioClientTransport({
      command: options.command,
      args: [...(options.args ?? [])],
      env: { ...getDefaultEnvironment(), ...options.env },
      stderr: options.stderr ?? 'inherit',
      maxBufferSize: limit,
      ...(options.cwd !== undefined && { cwd: options.cwd }),
    });
  }
  const base = options.fetch ?? globalThis.fetch;
  const fixed: Record<string, string> = { ...options.headers, ...(options.bearer !== undefined && { authorization: `Bearer ${options.bearer}` }) };
  // Every upstream request gets the configured headers and the caller's (a token exchange), set
  // here and nowhere else: nothing of the downstream request reaches this fetch.
  const upstreamFetch: typeof globalThis.fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(fixed)) headers.set(name, value);
    if (options.credentials) for (const [name, value] of Object.entries(await options.credentials(caller()))) headers.set(name, value);
    return base(input, { ...init, headers });
  };
  return new StreamableHTTPClientTransport(new URL(options.url), { fetch: limitMessages(upstreamFetch, limit, tooLarge) }) as ClientTransport;
}
