import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';

/** One page of a list, in the `{ <key>: [...], nextCursor? }` shape of MCP list results. */
export type Page<K extends string, T> = { [key in K]: T[] } & { nextCursor?: string };

/**
 * Cuts `items` into pages of `pageSize` (all of them when undefined). Cursors are opaque to
 * clients (an encoded list name and offset); a malformed one, or one from another list,
 * is refused with -32602.
 */
export function paginate<K extends string, T>(key: K, items: T[], cursor: string | undefined, pageSize: number | undefined): Page<K, T> {
  return pageAt(key, items, cursorOffset(key, cursor, items.length), pageSize);
}

/** Longer than any cursor `encodeCursor` makes (`resourceTemplates:` and an offset, in base64url): a longer one is not quoted back. */
const LONGEST_CURSOR = 64;

/**
 * Where the page a cursor asks for starts: 0 without one. Many spellings of a cursor decode to
 * one offset, so a cache of pages is keyed by the offset, never by the cursor a client sent.
 */
export function cursorOffset(key: string, cursor: string | undefined, length: number): number {
  if (cursor === undefined) return 0;
  const decoded = decodeCursor(cursor);
  if (!decoded || decoded.list !== key || decoded.offset > length) {
    // A cursor longer than any this server issues is not sent back: the answer would be as large as the request.
    const data = cursor.length <= LONGEST_CURSOR ? { cursor } : undefined;
    throw new ProtocolError(ErrorCodes.InvalidParams, `Invalid cursor for ${key}: use the nextCursor of the previous page, or list again without a cursor.`, data);
  }
  return decoded.offset;
}

/** The page of `items` that starts at `offset`, with the cursor of the next one when there is more. */
export function pageAt<K extends string, T>(key: K, items: T[], offset: number, pageSize: number | undefined): Page<K, T> {
  if (pageSize === undefined) return { [key]: offset === 0 ? items : items.slice(offset) } as unknown as Page<K, T>;
  const end = Math.min(items.length, offset + pageSize);
  const page = { [key]: items.slice(offset, end) } as unknown as Page<K, T>;
  if (end < items.length) page.nextCursor = encodeCursor(key, end);
  return page;
}

function encodeCursor(list: string, offset: number): string {
  return Buffer.from(`${list}:${offset}`).toString('base64url');
}

function decodeCursor(cursor: string): { list: string; offset: number } | undefined {
  const m = /^([a-zA-Z]+):(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? { list: m[1], offset: Number(m[2]) } : undefined;
}
