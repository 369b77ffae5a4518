import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { App } from '../app/App';

export interface TestClientOptions {
  /** Client capabilities to declare (e.g. `{ elicitation: {}, sampling: {} }`). */
  capabilities?: ClientOptions['capabilities'];
  clientInfo?: { name: string; version: string };
}

/**
 * A real SDK `Client` connected to the app over an in-memory transport: for your own
 * tests, with no process or port. `await client.close()` ends both sides.
 */
export async function createTestClient(app: App, options: TestClientOptions = {}): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client(options.clientInfo ?? { name: 'toolwright-test-client', version: '0.0.0' }, {
    capabilities: options.capabilities ?? {},
  });
  await Promise.all([app.connect(serverSide), client.connect(clientSide)]);
  return client;
}
