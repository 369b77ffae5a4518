import {
  parseJSONRPCMessage,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  type JSONRPCMessage,
  type ListRootsResult,
  type Transport,
} from '../sdk/sdk';
import { ToolwrightError } from '@toolwright/core';
import type { Client } from '../sdk/client';
import { refuseAfterClose } from './refuseAfterClose';

/** The 2025-era client a test drives: the v2 SDK's `Client` (`@modelcontextprotocol/client`), in its 'legacy' mode (the 2025 handshake). */
export type LegacyClient = Client;
/** The 2026-07-28 client a test drives: the v2 SDK's `Client` (`@modelcontextprotocol/client`), pinned to 2026-07-28. */
export type ModernClient = Client;

/** How a test client answers the requests a server sends it (each one declares its capability). */
export interface TestClientHandlers {
  elicit?(params: ElicitRequestParams): Promise<ElicitResult>;
  sample?(params: CreateMessageRequestParams): Promise<CreateMessageResult>;
  listRoots?(): Promise<ListRootsResult>;
}

export interface TestClientSetup {
  /** The 2026-07-28 era (the `Client` pinned to it), else the 2025 handshake (the `Client` in its 'legacy' mode). */
  readonly modern: boolean;
  readonly clientInfo: { name: string; version: string };
  /** Declared besides those the handlers imply. */
  readonly capabilities: ClientCapabilities;
  readonly handlers: TestClientHandlers;
}

/** Where the client's messages go. */
export type TestClientWire =
  /** An in-memory pair; `serve` attaches the server side to its end and returns how to stop it. */
  | { readonly kind: 'memory'; serve(transport: Transport): { close(): Promise<void> } }
  /** A process the client starts and talks to over its stdin/stdout. */
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly cwd?: string; readonly env: Record<string, string>; readonly stderr: 'inherit' | 'ignore' }
  /** A Streamable HTTP endpoint. */
  | { readonly kind: 'http'; readonly url: URL; readonly headers: Readonly<Record<string, string>> };

/** What the SDK client's transports are, as far as the memory pair is concerned. */
export interface ClientSideTransport {
  start(): Promise<void>;
  send(message: JSONRPCMessage): Promise<void>;
  close(): Promise<void>;
  onmessage?: (message: never) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
}

/**
 * Connects a test client over `wire`: the SDK v2 `Client` (`@modelcontextprotocol/client`), in
 * its 'legacy' mode for the 2025 era (the `initialize` handshake, 2025-11-25) or pinned to
 * 2026-07-28 for the modern era, with the handlers registered for the server-to-client
 * requests it answers. The client package is loaded only when a test client is asked for.
 * `close()` on the client also stops what `wire` started on the server side; a call after it fails saying so (`refuseAfterClose`).
 */
export async function connectTestClient(setup: TestClientSetup, wire: TestClientWire): Promise<Client> {
  const capabilities: ClientCapabilities = { ...setup.capabilities };
  if (setup.handlers.elicit) capabilities.elicitation ??= { form: {}, url: {} };
  if (setup.handlers.sample) capabilities.sampling ??= {};
  if (setup.handlers.listRoots) capabilities.roots ??= {};
  const full = { ...setup, capabilities };
  let stop: () => Promise<void> = async () => undefined;
  const memory = (parseForClient: (message: unknown) => JSONRPCMessage): ClientSideTransport => {
    if (wire.kind !== 'memory') throw new ToolwrightError(`createTestClient: an in-memory transport was asked for a '${wire.kind}' wire. Please report it.`);
    const pair = memoryPair(parseForClient);
    const served = wire.serve(pair.server);
    stop = () => served.close();
    return pair.client;
  };
  let client: Client;
  try {
    // Loaded here, not at import: the test kit's helpers (toolText, toolSchema ...) work without the client package.
    client = await (require('./sdkTestClient') as typeof import('./sdkTestClient')).connectSdkClient(full, wire, memory);
  } catch (error) {
    await stop();
    throw error;
  }
  const closeClient = client.close.bind(client);
  client.close = async () => {
    await closeClient();
    await stop();
  };
  return refuseAfterClose(client);
}

/**
 * Two in-memory transports joined together, each message checked by the receiving side's
 * schema as a real wire would, and delivered on a later turn (a handler never runs inside
 * the sender's call). Closing either end closes both.
 */
function memoryPair(parseForClient: (message: unknown) => JSONRPCMessage): { server: Transport; client: ClientSideTransport } {
  let closed = false;
  const deliver = (receive: () => void): void => {
    if (!closed) queueMicrotask(receive);
  };
  const closeBoth = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    client.onclose?.();
    server.onclose?.();
  };
  const server: Transport = {
    start: async () => undefined,
    send: async (message) => deliver(() => client.onmessage?.(parseForClient(message) as never)),
    close: closeBoth,
  };
  const client: ClientSideTransport = {
    start: async () => undefined,
    send: async (message) => {
      // Checked here, on the sender's turn: a message no server would take (`params: []`) rejects this send and the
      // test's request, where thrown on the later turn it was an uncaught exception that ended the test process.
      let parsed: JSONRPCMessage;
      try {
        parsed = parseJSONRPCMessage(message);
      } catch (error) {
        throw new ToolwrightError(
          `createTestClient: the client sent a message that is not valid JSON-RPC, which a server refuses (${String((error as Error).message).split('\n')[0]}): ${JSON.stringify(message).slice(0, 200)}`,
          { cause: error },
        );
      }
      deliver(() => server.onmessage?.(parsed));
    },
    close: closeBoth,
  };
  return { server, client };
}
