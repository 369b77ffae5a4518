/**
 * One-line assertions on a `tools/call` result, for any test runner: each returns the part a
 * test compares, or throws an error that shows what the result was instead. They accept the
 * result or the promise of it: `expect(await toolError(client.callTool(...))).toBe('...')`.
 */
import type { Awaitable } from './createTestClient';

/** The shape of a `CallToolResult`, as far as these helpers read it (any SDK version's). */
export interface ToolResultLike {
  readonly [key: string]: unknown;
  readonly content?: unknown;
  readonly isError?: unknown;
  readonly structuredContent?: unknown;
}

/** The texts of a result's text blocks. */
function textsOf(result: ToolResultLike): string[] {
  const blocks = Array.isArray(result.content) ? (result.content as ({ type?: unknown; text?: unknown } | null)[]) : [];
  return blocks.filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b!.text as string);
}

/** The text of a result's text blocks, joined by newlines. */
const textOf = (result: ToolResultLike): string => textsOf(result).join('\n');

const shown = (result: ToolResultLike): string => JSON.stringify(result, null, 2);

/** The text of a successful result; throws when the tool returned an error, or content with no text block (an image, a resource). */
export async function toolText(call: Awaitable<ToolResultLike>): Promise<string> {
  const result = await call;
  if (result.isError === true) throw new Error(`Expected the tool to succeed, but it returned an error: ${textOf(result)}`);
  const texts = textsOf(result);
  if (texts.length === 0) throw new Error(`Expected text content, but the result has no text block (read result.content for other content):\n${shown(result)}`);
  return texts.join('\n');
}

/** The message of an error result (`isError: true`), which the model reads; throws when the tool succeeded. */
export async function toolError(call: Awaitable<ToolResultLike>): Promise<string> {
  const result = await call;
  if (result.isError !== true) throw new Error(`Expected the tool to return an error (isError: true), but it succeeded with:\n${shown(result)}`);
  return textOf(result);
}

/** The `structuredContent` of a successful result; throws when the tool failed or returned none. */
export async function structuredResult<T = unknown>(call: Awaitable<ToolResultLike>): Promise<T> {
  const result = await call;
  if (result.isError === true) throw new Error(`Expected a structured result, but the tool returned an error: ${textOf(result)}`);
  if (result.structuredContent === undefined) throw new Error(`Expected structuredContent (a tool with an output DTO), but the result has none:\n${shown(result)}`);
  return result.structuredContent as T;
}
