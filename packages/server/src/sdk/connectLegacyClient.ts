import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport as ClientTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';

/** The 2025-era client a test drives. */
export type LegacyClient = Client;

export interface LegacyClientOptions {
  capabilities?: ClientOptions['capabilities'];
  clientInfo?: { name: string; version: string };
}

/**
 * Connects a 2025-era client (the v1 SDK's `Client`, the one most MCP clients run today) to
 * a server through an in-memory pair of transports, each message checked by the receiving
 * side's schema as a real wire would. `connect` attaches the server side.
 */
export async function connectLegacyClient(connect: (transport: Transport) => Promise<unknown>, options: LegacyClientOptions): Promise<Client> {
  const server: Transport = {
    start: async () => undefined,
    send: async (message: JSONRPCMessage) => deliver(() => client.onmessage?.(JSONRPCMessageSchema.parse(message))),
    close: async () => closeBoth(),
  };
  const client: ClientTransport = {
    start: async () => undefined,
    send: async (message) => deliver(() => server.onmessage?.(parseJSONRPCMessage(message))),
    close: async () => closeBoth(),
  };
  let closed = false;
  // Delivered on a later turn, as over a real wire: a handler never runs inside the sender's call.
  const deliver = (receive: () => void): void => {
    if (!closed) queueMicrotask(receive);
  };
  const closeBoth = (): void => {
    if (closed) return;
    closed = true;
    client.onclose?.();
    server.onclose?.();
  };
  const sdkClient = new Client(options.clientInfo ?? { name: 'toolwright-test-client', version: '0.0.0' }, { capabilities: options.capabilities ?? {} });
  await Promise.all([connect(server), sdkClient.connect(client)]);
  return sdkClient;
}
