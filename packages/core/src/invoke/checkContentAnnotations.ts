import type { ContentAnnotations, ContentBlock } from '../content/ToolResult';
import { CONTENT_ANNOTATIONS_SHAPE, shapeProblem } from '../registry/descriptorShapes';
import { MalformedResult } from './MalformedResult';

/**
 * Throws a `MalformedResult` naming the first content block whose `annotations` stray from MCP's
 * schema (`priority` from 0 to 1, `audience` of 'user' and 'assistant', `lastModified` an ISO 8601
 * date-time), as `result.content[1].annotations.priority is 2, not a number from 0 to 1`. A
 * 2026-07-28 client would otherwise get a protocol error for the whole call, and a 2025-11-25
 * one a result its own schema check refuses. Only blocks that carry annotations are looked at.
 */
export function checkContentAnnotations(content: readonly ContentBlock[], name = 'result'): void {
  for (let i = 0; i < content.length; i++) {
    const annotations = content[i].annotations;
    if (annotations !== undefined) checkAnnotations(annotations, `${name}.content[${i}].annotations`);
  }
}

/** The same check for one block's `annotations`, found at `at` (a prompt message's, say: `result.messages[0].content.annotations`). */
export function checkAnnotations(annotations: ContentAnnotations, at: string): void {
  const problem = shapeProblem(annotations, CONTENT_ANNOTATIONS_SHAPE, at);
  if (problem !== undefined) throw new MalformedResult(`${problem}: give it a value in that range, or leave it out.`);
}
