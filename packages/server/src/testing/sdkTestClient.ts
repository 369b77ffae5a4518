import { Client, parseJSONRPCMessage, StreamableHTTPClientTransport, type Transport } from '../sdk/client';
import { StdioClientTransport } from '../sdk/clientStdio';
import type { JSONRPCMessage } from '../sdk/sdk';
import type { ClientSideTransport, TestClientSetup, TestClientWire } from './connectTestClient';

/** The protocol revision the modern client pins. */
export const MODERN_PROTOCOL = '2026-07-28';

/**
 * The v2 `Client`: pinned to 2026-07-28 for the modern era (no handshake, every request
 * carries its era), or in its 'legacy' mode, the 2025 `initialize` handshake (it offers
 * 2025-11-25 and accepts the older revisions a server answers with). See `connectTestClient`.
 */
export async function connectSdkClient(setup: TestClientSetup, wire: TestClientWire, memory: (parse: (message: unknown) => JSONRPCMessage) => ClientSideTransport): Promise<Client> {
  const client = new Client(setup.clientInfo, { capabilities: setup.capabilities, versionNegotiation: { mode: setup.modern ? { pin: MODERN_PROTOCOL } : 'legacy' } });
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
