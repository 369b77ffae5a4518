import type { LoggingLevel } from '../sdk/sdk';

/** The cursor of a list request's next page. */
export type TestPageParams = { cursor?: string };
/** A result object: the members a test reads, and any others the server sent. */
export type TestRecord = { readonly [key: string]: unknown };

/** A content block of a result or a prompt message. */
export type TestContent = TestRecord & { type: string; text?: string; data?: string; mimeType?: string };

/** A `tools/call` result. */
export type TestToolResult = TestRecord & { content?: TestContent[]; structuredContent?: unknown; isError?: boolean };

export type TestTool = TestRecord & {
  name: string;
  title?: string;
  description?: string;
  inputSchema: TestRecord & { type: 'object' };
  outputSchema?: TestRecord;
  annotations?: TestRecord;
  _meta?: TestRecord;
};

/**
 * The calls a test client makes in both eras, with the same arguments: the part of the SDK's
 * `Client` that helpers written for any client (this kit's, or another MCP client) can rely on.
 * `createTestClient` returns the whole SDK v2 `Client`, which has all of these.
 */
export interface TestClient {
  /** Read the result with `toolText`, `toolError` or `structuredResult`. */
  callTool(params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> }): Promise<TestToolResult>;
  listTools(params?: TestPageParams): Promise<TestRecord & { tools: TestTool[]; nextCursor?: string }>;
  listResources(params?: TestPageParams): Promise<TestRecord & { resources: (TestRecord & { uri: string; name: string; mimeType?: string })[]; nextCursor?: string }>;
  listResourceTemplates(params?: TestPageParams): Promise<TestRecord & { resourceTemplates: (TestRecord & { uriTemplate: string; name: string; mimeType?: string })[]; nextCursor?: string }>;
  readResource(params: { uri: string }): Promise<TestRecord & { contents: (TestRecord & { uri: string; mimeType?: string; text?: string; blob?: string })[] }>;
  listPrompts(
    params?: TestPageParams,
  ): Promise<TestRecord & { prompts: (TestRecord & { name: string; description?: string; arguments?: (TestRecord & { name: string; required?: boolean })[] })[]; nextCursor?: string }>;
  getPrompt(params: {
    name: string;
    arguments?: Record<string, string>;
  }): Promise<TestRecord & { description?: string; messages: (TestRecord & { role: 'user' | 'assistant'; content: TestContent })[] }>;
  complete(params: {
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
    argument: { name: string; value: string };
    context?: { arguments?: Record<string, string> };
  }): Promise<TestRecord & { completion: TestRecord & { values: string[]; total?: number; hasMore?: boolean } }>;
  setLoggingLevel(level: LoggingLevel): Promise<unknown>;
  ping(): Promise<unknown>;
  getServerCapabilities(): TestRecord | undefined;
  getServerVersion(): (TestRecord & { name: string; version: string }) | undefined;
  /** Ends both sides (and the HTTP listener or the server process the client started). */
  close(): Promise<void>;
}
