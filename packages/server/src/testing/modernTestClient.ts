import { Client, parseJSONRPCMessage, StreamableHTTPClientTransport, type Transport } from '../sdk/client';
import { StdioClientTransport } from '../sdk/clientStdio';
import type { JSONRPCMessage } from '../sdk/sdk';
import type { ClientSideTransport, TestClientSetup, TestClientWire } from './connectTestClient';

/** The 2026-07-28 client a test drives: the v2 SDK's `Client` (`@modelcontextprotocol/client`). */
export type ModernClient = Client;

/** The protocol revision the modern client pins. */
export const MODERN_PROTOCOL = '2026-07-28';

/** The v2 `Client`, pinned to 2026-07-28: no handshake, every request carries its era (see `connectTestClient`). */
export async function connectModernClient(setup: TestClientSetup, wire: TestClientWire, memory: (parse: (message: unknown) => JSONRPCMessage) => ClientSideTransport): Promise<Client> {
  const client = new Client(setup.clientInfo, { capabilities: setup.capabilities, versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } });
  const { elicit, sample, listRoots } = setup.handlers;
  if (elicit) client.setRequestHandler('elicitation/create', (request) => elicit(request.params));
  if (sample) client.setRequestHandler('sampling/createMessage', (request) => sample(request.params));
  if (listRoots) client.setRequestHandler('roots/list', () => listRoots());
  const transport: Transport =
    wire.kind === 'memory'
      ? (memory((message) => parseJSONRPCMessage(message) as JSONRPCMessage) as Transport)
      : wire.kind === 'stdio'
        ? new StdioClientTransport({ command: wire.command, args: [...wire.args], cwd: wire.cwd, env: wire.env, stderr: wire.stderr })
        : new StreamableHTTPClientTransport(wire.url, { requestInit: { headers: { ...wire.headers } } });
  await client.connect(transport);
  return client;
}
