/** The SDK v1 client (`@modelcontextprotocol/sdk`), as the test kit drives a 2025-11-25 session with it. */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
export { CreateMessageRequestSchema, ElicitRequestSchema, JSONRPCMessageSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
export type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
