import { Client, parseJSONRPCMessage, StreamableHTTPClientTransport, type Transport } from '../sdk/client';
import { StdioClientTransport } from '../sdk/clientStdio';
import type { JSONRPCMessage } from '../sdk/sdk';
import type { ClientSideTransport, TestClientSetup, TestClientWire } from './connectTestClient';
import { ToolwrightError } from '@toolwright/core';
import { stderrTail } from './stderrTail';

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
  if (wire.kind === 'stdio') return connectStdio(client, wire);
  const transport: Transport =
    wire.kind === 'memory'
      ? (memory((message) => parseJSONRPCMessage(message) as JSONRPCMessage) as Transport)
      : new StreamableHTTPClientTransport(wire.url, { requestInit: { headers: { ...wire.headers } } });
  await client.connect(transport);
  return client;
}

/** The longest command line a failed connection quotes. */
const MAX_COMMAND_CHARS = 200;

/**
 * Starts the server process and connects to it. Its stderr is piped (and copied to this
 * process's when shown), so that a process that stops before answering (not built, a wrong
 * path, a failing start hook) fails with an error naming it and quoting the end of its stderr,
 * instead of the SDK's bare 'Connection closed'.
 */
async function connectStdio(client: Client, wire: Extract<TestClientWire, { kind: 'stdio' }>): Promise<Client> {
  const transport = new StdioClientTransport({ command: wire.command, args: [...wire.args], cwd: wire.cwd, env: wire.env, stderr: 'pipe' });
  const stderr = stderrTail(transport.stderr, wire.stderr === 'inherit');
  try {
    await client.connect(transport);
    return client;
  } catch (error) {
    // What the process wrote just before it stopped may be a turn behind its exit.
    await new Promise((resolve) => setImmediate(resolve));
    const line = [wire.command, ...wire.args].join(' ');
    const command = line.length > MAX_COMMAND_CHARS ? `${line.slice(0, MAX_COMMAND_CHARS)}...` : line;
    const said = stderr();
    throw new ToolwrightError(
      `createTestClient: the server process \`${command}\` stopped before it answered (${(error as Error).message}). ${said ? `The end of its stderr:\n${said}` : 'Run it by hand to see why.'}`,
      { cause: error },
    );
  }
}
