import type { ContentBlock, ToolResult } from '../content/ToolResult';
import { shapeProblem, type DescriptorShape } from '../registry/descriptorShapes';
import { checkContentBlocks } from './checkContentBlocks';
import { MalformedResult } from './MalformedResult';
import { jsonTextOf, sendable, UnsendableResult } from './sendable';

const BLOCK_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

/**
 * Turns whatever a tool method returned into a `ToolResult`:
 * a complete result passes through untouched; a content block or an array of them
 * becomes the content; strings, numbers and booleans become text; `undefined`/`null`
 * become empty content; other objects and arrays become JSON text. What passes through as
 * the tool returned it, or becomes JSON text, is checked for what JSON cannot carry (`UnsendableResult`);
 * blocks and results the tool returned, for what MCP's schema refuses (`MalformedResult`). What
 * `isContentBlock` does not take for a block (`{ type: 'image', url }`, say) is data, sent as JSON text.
 */
export function normalizeResult(value: unknown): ToolResult {
  if (value === undefined || value === null) return { content: [] };
  switch (typeof value) {
    case 'string':
      return { content: [{ type: 'text', text: value }] };
    case 'number':
    case 'boolean':
    case 'bigint':
      return { content: [{ type: 'text', text: String(value) }] };
  }
  if (Array.isArray(value)) {
    // Checked element by element only when the first one looks like a block: most arrays are data.
    if (value.length > 0 && isContentBlock(value[0]) && value.every(isContentBlock)) return checkedResult(sendable({ content: value }));
  } else if (typeof value === 'object') {
    if (isToolResult(value)) return checkedResult(sendable(value));
    if (isContentBlock(value)) return checkedResult(sendable({ content: [value] }));
  }
  const text = jsonTextOf(value);
  if (text === undefined) throw noJsonText(value);
  return { content: [{ type: 'text', text }] };
}

/** The fields of a `CallToolResult` beside its content that MCP gives a type (`structuredContent` may be any JSON). */
const RESULT_FIELDS: DescriptorShape = { isError: 'boolean', _meta: 'object' };

/**
 * `result` once its blocks (see `checkContentBlocks`), `isError` and `_meta` are found of MCP's
 * shape; otherwise throws a `MalformedResult` naming the field. Only what the tool made is
 * checked: the blocks Toolwright makes (a string's text) need no check.
 */
export function checkedResult<T extends ToolResult>(result: T): T {
  checkContentBlocks(result.content);
  if (result.isError !== undefined || result._meta !== undefined) {
    const problem = shapeProblem(result, RESULT_FIELDS, 'result');
    if (problem !== undefined) throw new MalformedResult(`${problem}: give isError a boolean and _meta an object, or leave them out.`);
  }
  return result;
}

/** A function, a symbol, or a toJSON() that returns nothing: JSON.stringify writes no text for them (kept out of normalizeResult, which runs every call). */
function noJsonText(value: unknown): UnsendableResult {
  const what = typeof value === 'object' ? 'an object whose toJSON() returns nothing' : `a ${typeof value}`;
  return new UnsendableResult(`result is ${what}, which JSON cannot carry: return a string, a number, an object or a content block.`);
}

/** A value shaped like a complete `CallToolResult`: `{ content: ContentBlock[], ... }`. */
export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as ToolResult).content) && (value as ToolResult).content.every(isContentBlock);
}

/** A value shaped like one content block (text, image, audio, resource, resource_link). */
export function isContentBlock(value: unknown): value is ContentBlock {
  if (typeof value !== 'object' || value === null) return false;
  const block = value as Record<string, unknown>;
  if (typeof block.type !== 'string' || !BLOCK_TYPES.has(block.type)) return false;
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string';
    case 'image':
    case 'audio':
      return typeof block.data === 'string' && typeof block.mimeType === 'string';
    case 'resource':
      return typeof block.resource === 'object' && block.resource !== null;
    default:
      return typeof block.uri === 'string' && typeof block.name === 'string';
  }
}
