import type { App, ServiceOverrides } from '../app/App';
import { connectLegacyClient, type LegacyClient, type LegacyClientOptions } from '../sdk/connectLegacyClient';

export interface TestClientOptions extends LegacyClientOptions {
  /** Test doubles for this client's calls only: `[[RealService, fake]]`; the app's container is left as it is. */
  overrides?: ServiceOverrides;
}

/**
 * A real SDK `Client` connected to the app over an in-memory transport: for your own
 * tests, with no process or port. `await client.close()` ends both sides.
 */
export function createTestClient(app: App, options: TestClientOptions = {}): Promise<LegacyClient> {
  const { overrides, ...client } = options;
  return connectLegacyClient((transport) => app.connect(transport, { overrides }), client);
}
