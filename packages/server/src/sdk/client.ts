/** The SDK v2 client (`@modelcontextprotocol/client`), as the test kit drives a server with it. */
export { Client, parseJSONRPCMessage, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
export type { Transport } from '@modelcontextprotocol/client';
