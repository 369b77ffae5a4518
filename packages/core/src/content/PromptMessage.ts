import type { ContentBlock } from './ToolResult';

/** One message of a prompt (MCP `PromptMessage`). */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

/** The wire shape of `prompts/get`. */
export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}
