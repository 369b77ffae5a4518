import { Client } from '../sdk/legacyClient';
import { StdioClientTransport } from '../sdk/legacyClient';
import { StreamableHTTPClientTransport } from '../sdk/legacyClient';
import type { Transport } from '../sdk/legacyClient';
import { CreateMessageRequestSchema, ElicitRequestSchema, JSONRPCMessageSchema, ListRootsRequestSchema, type ClientCapabilities } from '../sdk/legacyClient';
import type { JSONRPCMessage } from '../sdk/sdk';
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
