import { Client, parseJSONRPCMessage, StreamableHTTPClientTransport, type Transport } from '../sdk/client';
import { StdioClientTransport } from '../sdk/clientStdio';
import type { JSONRPCMessage } from '../sdk/sdk';
import type { ClientSideTransport, TestClientSetup, TestClientWire } from './connectTestClient';
import { ToolwrightError } from '@toolwright/core';
import { stderrTail } from './stderrTail';
import { shellQuoted } from './shellQuoted';

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

/**
 * The SDK's stdio transport, as a class of its own: the SDK asks a 2026-07-28 server its era
 * (`server/discover`) in place on a transport that is not its base class, where on the base class
 * it asks a short-lived copy of the process whose stderr and exit it keeps to itself. In place, a
 * modern server that stops before it answers fails the connection as a 2025 one does: this
 * process's stderr is quoted and its stop is seen. A pinned era has no fallback to spare the
 * process for, so asking in place costs the test nothing (and one process start less).
 */
class TestStdioTransport extends StdioClientTransport {}

/** The longest command line a failed connection quotes. */
const MAX_COMMAND_CHARS = 200;

/**
 * Starts the server process and connects to it. Its stderr is piped (and copied to this
 * process's when shown), so that a failed connection names the command and quotes the end of
 * its stderr, instead of the SDK's bare 'Connection closed'. It says the process stopped before
 * it answered (not built, a wrong path, a failing start hook) only when the process did exit;
 * any other failure (a process that answered what the SDK refused, one that could not start) is
 * the SDK's error, with the command named.
 */
async function connectStdio(client: Client, wire: Extract<TestClientWire, { kind: 'stdio' }>): Promise<Client> {
  const transport = new TestStdioTransport({ command: wire.command, args: [...wire.args], cwd: wire.cwd, env: wire.env, stderr: 'pipe' });
  const stderr = stderrTail(transport.stderr, wire.stderr === 'inherit');
  // The process's exit (the transport closes on it): set before the SDK fails the connection for it.
  let exited = false;
  transport.onclose = () => {
    exited = true;
  };
  try {
    await client.connect(transport);
    return client;
  } catch (error) {
    // Read now: on a failed handshake the SDK closes the transport itself, which ends the process later.
    const stopped = exited;
    // What the process wrote just before it stopped may be a turn behind its exit.
    await new Promise((resolve) => setImmediate(resolve));
    const line = shellQuoted(wire.command, wire.args);
    const command = line.length > MAX_COMMAND_CHARS ? `${line.slice(0, MAX_COMMAND_CHARS)}...` : line;
    const reason = (error as Error).message;
    const said = stderr();
    const tail = said ? ` The end of its stderr:\n${said}` : '';
    const message = stopped
      ? `the server process \`${command}\` stopped before it answered (${reason}).${tail || ' Run it by hand to see why.'}`
      : `connecting to the server process \`${command}\` failed: ${reason.replace(/\.?$/, '.')}${tail}`;
    throw new ToolwrightError(`createTestClient: ${message}`, { cause: error });
  }
}
