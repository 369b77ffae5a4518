import type { AudioContent, ImageContent, TextContent } from '../content/ToolResult';
import type { JsonSchema } from '../schema/JsonSchema';

/** The user's answer to an elicitation: accepted content, or a decline/cancel without content. */
export type ElicitOutcome<T> = { readonly action: 'accept'; readonly content: T } | { readonly action: 'decline' | 'cancel' };

/** The answer to a URL-mode elicitation: the user opened (accept) or refused the URL. */
export interface UrlElicitOutcome {
  readonly action: 'accept' | 'decline' | 'cancel';
}

/**
 * What an elicitation form may ask for (MCP 2025-11-25): an object whose properties are
 * strings (optionally with `format` email/uri/date/date-time), numbers, integers, booleans,
 * single-select enums (`enum`, or `oneOf` of `{ const, title }`) and multi-select arrays of them,
 * each with an optional `default`.
 */
export type ElicitationSchema = JsonSchema & { type: 'object'; properties: Record<string, JsonSchema> };

export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: TextContent | ImageContent | AudioContent;
}

/** A `sampling/createMessage` request: ask the client's model for a completion. */
export interface SamplingRequest {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  includeContext?: 'none' | 'thisServer' | 'allServers';
  modelPreferences?: {
    hints?: { name?: string }[];
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
  metadata?: Record<string, unknown>;
}

/** The client model's reply. */
export interface SamplingResult {
  role: 'user' | 'assistant';
  content: TextContent | ImageContent | AudioContent;
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

/** A root the client exposes (a directory or other base URI the server may work in). */
export interface Root {
  uri: string;
  name?: string;
}
