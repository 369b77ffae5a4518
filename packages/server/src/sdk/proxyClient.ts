/**
 * The SDK v2 client as a proxy uses it to reach an upstream MCP server: over Streamable HTTP,
 * or a child process over stdio. Imported only by `@toolwright/server/proxy`, so the optional
 * `@modelcontextprotocol/client` peer is loaded only by apps that proxy.
 */
export { Client, LOG_LEVEL_META_KEY, SERVER_INFO_META_KEY, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
export { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
export type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  GetPromptResult,
  McpSubscription,
  Prompt,
  ReadResourceResult as UpstreamReadResult,
  Resource,
  ResourceTemplateType,
  Tool as UpstreamTool,
  Transport as ClientTransport,
} from '@modelcontextprotocol/client';
