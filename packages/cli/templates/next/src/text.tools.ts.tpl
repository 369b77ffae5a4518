import { Param, Tool, ToolError } from '@toolwright/core';
import { WordCount } from './word-count.dto';

/**
 * Pure tools: no state, so any isolate of the Worker can answer any call. The parameter types
 * come from decorator metadata (`design:paramtypes`), which tsc emits and the bundle keeps:
 * `maxLength` is a number only because TypeScript says so.
 */
export class TextTools {
  @Tool({ description: 'Count the words and characters of a text. Use when the user asks how long a text is.', annotations: { readOnlyHint: true } })
  wordCount(@Param('text', { description: 'The text to count' }) text: string): WordCount {
    // A class as the return type: its properties are the tool's outputSchema, the result its structuredContent.
    const words = text.trim() === '' ? 0 : text.trim().split(/\s+/u).length;
    return { words, characters: [...text].length };
  }

  @Tool({ description: "Turn a title into a URL slug, e.g. 'Deploy anywhere!' into 'deploy-anywhere'.", annotations: { readOnlyHint: true } })
  slugify(
    @Param('title', { description: 'The title to turn into a slug', minLength: 1 }) title: string,
    @Param('maxLength', { description: 'The longest slug to return', integer: true, minimum: 1, maximum: 200, default: 60 }) maxLength: number,
  ): string {
    const slug = title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/gu, '-')
      .replace(/^-+|-+$/gu, '')
      .slice(0, maxLength)
      .replace(/-+$/u, '');
    if (slug === '') throw new ToolError('The title has no letters or digits to make a slug of: pass a title with some.');
    return slug;
  }
}
