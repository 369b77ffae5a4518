import type { ContentBlock } from '../content/ToolResult';
import { contentBlockProblem } from './contentBlockProblem';
import { MalformedResult } from './MalformedResult';

const FIX_ANNOTATIONS = 'give it a value in that range, or leave it out.';
const FIX_BLOCK = "return a block of MCP's shape (text(), image(), audio(), resourceLink() and embeddedResource() from @toolwright/core build one).";

/**
 * Throws a `MalformedResult` naming the first content block that strays from MCP's schema (see
 * `contentBlockProblem`), as `result.content[1].annotations.priority is 2, not a number from 0 to
 * 1` or `result.content[0].resource.uri is missing`. A 2026-07-28 client would otherwise get a
 * protocol error for the whole call, and a 2025-11-25 one a result its own schema check refuses.
 * A plain text block (a string `text`, no annotations, no `_meta`) costs a few reads.
 */
export function checkContentBlocks(content: readonly ContentBlock[], name = 'result'): void {
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    if (block.type === 'text' && typeof block.text === 'string' && block.annotations === undefined && block._meta === undefined) continue;
    checkContentBlock(block, `${name}.content[${i}]`);
  }
}

/** The same check for one block found at `at` (a prompt message's, say: `result.messages[0].content`). */
export function checkContentBlock(block: ContentBlock, at: string): void {
  const problem = contentBlockProblem(block, at);
  if (problem === undefined) return;
  // A value out of its range has a fix of its own.
  throw new MalformedResult(`${problem}: ${problem.startsWith(`${at}.annotations.`) ? FIX_ANNOTATIONS : FIX_BLOCK}`);
}
