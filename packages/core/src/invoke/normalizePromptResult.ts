import type { PromptMessage, PromptResult } from '../content/PromptMessage';
import { checkAnnotations } from './checkContentAnnotations';
import { isContentBlock } from './normalizeResult';
import { sendable } from './sendable';
import { ToolwrightError } from '../errors/ToolwrightError';

/**
 * Turns what a prompt method returned into a `prompts/get` result: a string or a content
 * block is one user message; a message (`{ role, content }`) is kept; an array may mix the
 * three; `{ messages }` passes through. Throws for anything else, for what JSON cannot carry, and
 * for a block whose annotations stray from MCP's ranges (`MalformedResult`; each reported as an
 * internal error).
 */
export function normalizePromptResult(value: unknown, name: string): PromptResult {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Array.isArray((value as PromptResult).messages)) {
    const result = value as PromptResult;
    return sendable({ ...result, messages: result.messages.map((m, i) => message(m, name, i)) });
  }
  const items = Array.isArray(value) ? value : [value];
  return sendable({ messages: items.map((m, i) => message(m, name, i)) });
}

function message(value: unknown, name: string, index: number): PromptMessage {
  const m = asMessage(value, name, index);
  const annotations = m.content.annotations;
  if (annotations !== undefined) checkAnnotations(annotations, `result.messages[${index}].content.annotations`);
  return m;
}

function asMessage(value: unknown, name: string, index: number): PromptMessage {
  if (typeof value === 'string') return { role: 'user', content: { type: 'text', text: value } };
  if (isContentBlock(value)) return { role: 'user', content: value };
  const m = value as PromptMessage | null;
  if (typeof m === 'object' && m !== null && (m.role === 'user' || m.role === 'assistant') && isContentBlock(m.content)) return m;
  throw new ToolwrightError(
    `prompt '${name}' returned an unsupported message #${index} (${JSON.stringify(value)?.slice(0, 80)}): return a string, a content block, ` +
      '{ role, content }, an array of these, or { messages }.',
  );
}
