import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, JSONRPCMessageSchema, ListRootsRequestSchema, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { ClientSideTransport, TestClientSetup, TestClientWire } from './connectTestClient';

/** The 2025-era client a test drives: the v1 SDK's `Client`. */
export type LegacyClient = Client;

/** The v1 `Client`, through the 2025 handshake (see `connectTestClient`). */
export async function connectLegacyClient(setup: TestClientSetup, wire: TestClientWire, memory: (parse: (message: unknown) => JSONRPCMessage) => ClientSideTransport): Promise<Client> {
  const client = new Client(setup.clientInfo, { capabilities: setup.capabilities as ClientCapabilities });
  const { elicit, sample, listRoots } = setup.handlers;
  // The v1 types are the same wire shapes as the v2 ones the handlers speak.
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params as never) as never);
  if (sample) client.setRequestHandler(CreateMessageRequestSchema, (request) => sample(request.params as never) as never);
  if (listRoots) client.setRequestHandler(ListRootsRequestSchema, () => listRoots() as never);
  const transport: Transport =
    wire.kind === 'memory'
      ? (memory((message) => JSONRPCMessageSchema.parse(message) as JSONRPCMessage) as Transport)
      : wire.kind === 'stdio'
        ? new StdioClientTransport({ command: wire.command, args: [...wire.args], cwd: wire.cwd, env: wire.env, stderr: wire.stderr })
        : new StreamableHTTPClientTransport(wire.url, { requestInit: { headers: { ...wire.headers } } });
  await client.connect(transport);
  return client;
}
