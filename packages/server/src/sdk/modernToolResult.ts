import { SERVER_INFO_META_KEY, type Implementation } from '@modelcontextprotocol/server';
import type { ToolResult } from '@toolwright/core';

const PLAIN_KEYS = new Set(['content', 'structuredContent', 'isError']);

/**
 * The 2026-07-28 wire form of a plain tool result, exactly as the SDK encodes it: text
 * blocks, optional `structuredContent` and `isError`, in the order of the SDK's result
 * schema, then `resultType` and the server's identity in `_meta`. Undefined for any other
 * result (other blocks, extra keys, `_meta` of its own): the SDK checks and encodes those.
 */
export function modernToolResult(result: ToolResult, serverInfo: Implementation | undefined): Record<string, unknown> | undefined {
  for (const key in result) if (!PLAIN_KEYS.has(key)) return undefined;
  const { content, structuredContent, isError } = result as { content: unknown; structuredContent?: unknown; isError?: unknown };
  if (!Array.isArray(content)) return undefined;
  const blocks: { type: 'text'; text: string }[] = [];
  for (const block of content as unknown[]) {
    const text = plainText(block);
    if (text === undefined) return undefined;
    blocks.push({ type: 'text', text });
  }
  if (structuredContent !== undefined && !isPlainObject(structuredContent)) return undefined;
  if (isError !== undefined && typeof isError !== 'boolean') return undefined;
  return {
    content: blocks,
    ...(structuredContent !== undefined && { structuredContent }),
    ...(isError !== undefined && { isError }),
    resultType: 'complete',
    ...(serverInfo !== undefined && { _meta: { [SERVER_INFO_META_KEY]: serverInfo } }),
  };
}

/** The text of a block that is `{ type: 'text', text }` and nothing else. */
function plainText(block: unknown): string | undefined {
  if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') return undefined;
  for (const key in block) if (key !== 'type' && key !== 'text') return undefined;
  return block.text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
