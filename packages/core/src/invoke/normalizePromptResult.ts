import type { PromptMessage, PromptResult } from '../content/PromptMessage';
import { shapeProblem, type DescriptorShape } from '../registry/descriptorShapes';
import { checkContentBlock } from './checkContentBlocks';
import { MalformedResult } from './MalformedResult';
import { isContentBlock } from './normalizeResult';
import { sendable } from './sendable';
import { ToolwrightError } from '../errors/ToolwrightError';

/** The fields of a `prompts/get` result beside its messages that MCP gives a type. */
const RESULT_FIELDS: DescriptorShape = { description: 'string', _meta: 'object' };

/**
 * Turns what a prompt method returned into a `prompts/get` result: a string or a content
 * block is one user message; a message (`{ role, content }`) is kept; an array may mix the
 * three; `{ messages }` passes through. Throws for anything else, for what JSON cannot carry, and
 * for a block, a `description` or a `_meta` that strays from MCP's schema (`MalformedResult`; each
 * reported as an internal error).
 */
export function normalizePromptResult(value: unknown, name: string): PromptResult {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Array.isArray((value as PromptResult).messages)) {
    const result = value as PromptResult;
    const problem = shapeProblem(result, RESULT_FIELDS, 'result');
    if (problem !== undefined) throw new MalformedResult(`${problem}: give description a string and _meta an object, or leave them out.`);
    return sendable({ ...result, messages: result.messages.map((m, i) => message(m, name, i)) });
  }
  const items = Array.isArray(value) ? value : [value];
  return sendable({ messages: items.map((m, i) => message(m, name, i)) });
}

function message(value: unknown, name: string, index: number): PromptMessage {
  const m = asMessage(value, name, index);
  checkContentBlock(m.content, `result.messages[${index}].content`);
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
