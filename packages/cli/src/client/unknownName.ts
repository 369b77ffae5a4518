import type { Client, RequestOptions } from '@modelcontextprotocol/client';
import { didYouMean } from '../cli/didYouMean';
import { named } from './unservedFeature';

/** How many pages of a list are read to find a name: enough for any server a person calls by hand. */
const MAX_PAGES = 20;

/**
 * After a `tools/call` or `prompts/get` the server refused: a sentence saying it serves no tool (or
 * prompt) of that name, the nearest it does serve and what it serves, so a mistyped name is told
 * as such (the server's own message is written for a model: "call tools/list"). Undefined when the
 * name is listed (the server refused the request for another reason, and its message stands) or the
 * list cannot be had.
 */
export async function unknownName(client: Client, kind: 'tool' | 'prompt', name: string, options: RequestOptions): Promise<string | undefined> {
  const pageOf = async (cursor: string | undefined): Promise<{ names: string[]; nextCursor?: string }> => {
    if (kind === 'tool') {
      const page = await client.listTools({ cursor }, options);
      return { names: page.tools.map((tool) => tool.name), nextCursor: page.nextCursor };
    }
    const page = await client.listPrompts({ cursor }, options);
    return { names: page.prompts.map((prompt) => prompt.name), nextCursor: page.nextCursor };
  };
  const names: string[] = [];
  let cursor: string | undefined;
  try {
    for (let pages = 0; pages < MAX_PAGES && (pages === 0 || cursor !== undefined); pages++) {
      const page = await pageOf(cursor);
      names.push(...page.names);
      cursor = page.nextCursor;
    }
  } catch {
    return undefined;
  }
  if (names.includes(name)) return undefined;
  return `the server serves no ${kind} '${name}'.${didYouMean(name, names)} It serves ${named(
    kind,
    names.map((n) => ({ name: n })),
    cursor !== undefined,
  )}.`;
}
