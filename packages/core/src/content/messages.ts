import type { PromptMessage } from './PromptMessage';
import type { ContentBlock } from './ToolResult';

/** A user message for a prompt: a string becomes a text block. */
export function userMessage(content: string | ContentBlock): PromptMessage {
  return { role: 'user', content: typeof content === 'string' ? { type: 'text', text: content } : content };
}

/** An assistant message for a prompt (e.g. to prefill the model's answer). */
export function assistantMessage(content: string | ContentBlock): PromptMessage {
  return { role: 'assistant', content: typeof content === 'string' ? { type: 'text', text: content } : content };
}
