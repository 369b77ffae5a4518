/**
 * `@toolwright/server/proxy`: serve another MCP server's members as part of an app. Needs the
 * `@modelcontextprotocol/client` peer. See the Proxy guide.
 */
export { proxyServer } from '../compose/proxy/proxyServer';
export type { ProxiedServer } from '../compose/proxy/ProxiedServer';
export type { ProxyOptions, ProxyCommonOptions, ProxyHttpOptions, ProxyStdioOptions, UpstreamCredentials, UpstreamProtocol } from '../compose/proxy/ProxyOptions';
