import type { ExtensionContext } from '../Extension';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, LOG_LEVEL_META_KEY } from '../../sdk/sdk';
import type { StoredClient } from './TaskStore';

/** What the client declared on the request that created a task. */
export function storedClientOf(ctx: ExtensionContext): StoredClient {
  const { clientCapabilities, clientInfo, logLevel } = ctx.envelope;
  return { capabilities: clientCapabilities, ...(clientInfo && { info: clientInfo }), ...(logLevel && { logLevel }) };
}

/** The 2026-07-28 envelope of a run outside any request: what the client declared then. */
export function clientMeta(client: StoredClient | undefined): Record<string, unknown> {
  return {
    [CLIENT_CAPABILITIES_META_KEY]: client?.capabilities ?? {},
    [CLIENT_INFO_META_KEY]: client?.info ?? { name: 'toolwright-task-worker', version: '1' },
    ...(client?.logLevel && { [LOG_LEVEL_META_KEY]: client.logLevel }),
  };
}
