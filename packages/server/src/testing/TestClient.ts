import type { LoggingLevel } from '../sdk/sdk';

type Page = { cursor?: string };
type Open = { readonly [key: string]: unknown };

/** A content block of a result or a prompt message. */
export type TestContent = Open & { type: string; text?: string; data?: string; mimeType?: string };

/** A `tools/call` result, as both clients type it (the v1 client also allows the 2024 `toolResult` shape). */
export type TestToolResult = Open & { content?: TestContent[]; structuredContent?: unknown; isError?: boolean };

export type TestTool = Open & {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Open & { type: 'object' };
  outputSchema?: Open;
  annotations?: Open;
  _meta?: Open;
};

/**
 * The calls both SDK clients have, with the same arguments: what a test that runs against
 * both eras (`protocol` known only at run time) can use. The object is the SDK's own client
 * (v1 `Client` or v2 `Client`); a literal `protocol` gives its whole API.
 */
export interface TestClient {
  /** Read the result with `toolText`, `toolError` or `structuredResult`. */
  callTool(params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> }): Promise<TestToolResult>;
  listTools(params?: Page): Promise<Open & { tools: TestTool[]; nextCursor?: string }>;
  listResources(params?: Page): Promise<Open & { resources: (Open & { uri: string; name: string; mimeType?: string })[]; nextCursor?: string }>;
  listResourceTemplates(params?: Page): Promise<Open & { resourceTemplates: (Open & { uriTemplate: string; name: string; mimeType?: string })[]; nextCursor?: string }>;
  readResource(params: { uri: string }): Promise<Open & { contents: (Open & { uri: string; mimeType?: string; text?: string; blob?: string })[] }>;
  listPrompts(params?: Page): Promise<Open & { prompts: (Open & { name: string; description?: string; arguments?: (Open & { name: string; required?: boolean })[] })[]; nextCursor?: string }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<Open & { description?: string; messages: (Open & { role: 'user' | 'assistant'; content: TestContent })[] }>;
  complete(params: {
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
    argument: { name: string; value: string };
    context?: { arguments?: Record<string, string> };
  }): Promise<Open & { completion: Open & { values: string[]; total?: number; hasMore?: boolean } }>;
  setLoggingLevel(level: LoggingLevel): Promise<unknown>;
  ping(): Promise<unknown>;
  getServerCapabilities(): Open | undefined;
  getServerVersion(): (Open & { name: string; version: string }) | undefined;
  /** Ends both sides (and the HTTP listener or the server process the client started). */
  close(): Promise<void>;
}
