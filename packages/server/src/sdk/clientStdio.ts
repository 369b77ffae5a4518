/** The SDK v2 client's stdio transport (`@modelcontextprotocol/client/stdio`), which spawns a server process. */
export { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
