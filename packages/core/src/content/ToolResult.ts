/**
 * The wire shapes of a tool result (MCP 2025-11-25 `CallToolResult`), declared here so the
 * core never imports the SDK. They are structurally identical to the SDK's types.
 */
export interface ContentAnnotations {
  audience?: ('user' | 'assistant')[];
  /** 0 (least important) to 1 (most important). */
  priority?: number;
  /** ISO 8601 timestamp. */
  lastModified?: string;
}

/** What every content block may carry: annotations for the client and `_meta`. */
export interface ContentBlockBase {
  annotations?: ContentAnnotations;
  _meta?: Record<string, unknown>;
}

export interface TextContent extends ContentBlockBase {
  type: 'text';
  text: string;
}
export interface ImageContent extends ContentBlockBase {
  type: 'image';
  data: string;
  mimeType: string;
}
export interface AudioContent extends ContentBlockBase {
  type: 'audio';
  data: string;
  mimeType: string;
}
export interface ResourceLinkContent extends ContentBlockBase {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}
export interface EmbeddedResourceContent extends ContentBlockBase {
  type: 'resource';
  resource: { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> } | { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> };
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLinkContent | EmbeddedResourceContent;

export interface ToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}
