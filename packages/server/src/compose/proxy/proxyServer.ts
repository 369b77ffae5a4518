import { ConfigError, stderrLogger } from '@toolwright/core';
import { checkProxyOptions } from './checkProxyOptions';
import { ProxiedServer } from './ProxiedServer';
import type { ProxyOptions } from './ProxyOptions';

/**
 * Connects to an MCP server (Streamable HTTP `{ url }`, or a process to start `{ command, args }`)
 * and makes it a member source: mount the result like an app,
 * `createApp({ mount: [{ app: await proxyServer({ url }), namespace: 'docs' }] })`. Its tools,
 * resources, templates and prompts are served as the upstream describes them; calls are
 * forwarded with progress, cancellation, log lines and the upstream's questions (elicitation,
 * sampling, roots) relayed to the calling client; each downstream session has an upstream
 * session of its own. The upstream gets the configured credentials, never the downstream
 * client's token. Throws a `ConfigError` when the upstream cannot be reached.
 */
export async function proxyServer(options: ProxyOptions): Promise<ProxiedServer> {
  checkProxyOptions(options);
  const proxied = new ProxiedServer(options, options.logger ?? stderrLogger('proxy'));
  try {
    await proxied.connect();
  } catch (error) {
    await proxied.stop();
    throw new ConfigError(`Toolwright: proxyServer() could not connect to ${proxied.label}: ${(error as Error).message}. Check the url or command, and that the server speaks MCP.`, {
      cause: error,
    });
  }
  return proxied;
}
