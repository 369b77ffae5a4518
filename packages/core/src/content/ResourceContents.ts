/** The wire shapes of `resources/read` (MCP 2025-11-25), declared here so the core never imports the SDK. */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Record<string, unknown>;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** Base64-encoded bytes. */
  blob: string;
  _meta?: Record<string, unknown>;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}
