import type { App } from '../app/App';
import { connectLegacyClient, type LegacyClient, type LegacyClientOptions } from '../sdk/connectLegacyClient';

export type TestClientOptions = LegacyClientOptions;

/**
 * A real SDK `Client` connected to the app over an in-memory transport: for your own
 * tests, with no process or port. `await client.close()` ends both sides.
 */
export function createTestClient(app: App, options: TestClientOptions = {}): Promise<LegacyClient> {
  return connectLegacyClient((transport) => app.connect(transport), options);
}
