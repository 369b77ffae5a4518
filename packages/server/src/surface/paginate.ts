import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';

/** One page of a list, in the `{ <key>: [...], nextCursor? }` shape of MCP list results. */
export type Page<K extends string, T> = { [key in K]: T[] } & { nextCursor?: string };

/**
 * Cuts `items` into pages of `pageSize` (all of them when undefined). Cursors are opaque to
 * clients (an encoded list name, offset and the list's `generation`); a malformed one, one from
 * another list, or one issued before the list changed is refused with -32602.
 */
export function paginate<K extends string, T>(key: K, items: T[], cursor: string | undefined, pageSize: number | undefined, generation = 0): Page<K, T> {
  return pageAt(key, items, cursorOffset(key, cursor, items.length, generation), pageSize, generation);
}

/** Longer than any cursor `encodeCursor` makes (`resourceTemplates:`, an offset and a generation, in base64url): a longer one is not quoted back. */
const LONGEST_CURSOR = 64;

/**
 * Where the page a cursor asks for starts: 0 without one. Many spellings of a cursor decode to
 * one offset, so a cache of pages is keyed by the offset, never by the cursor a client sent.
 * `generation` counts the list's changes: a cursor made before the last one points into a list
 * that is no longer served (an offset there would skip or repeat items), so it is refused.
 */
export function cursorOffset(key: string, cursor: string | undefined, length: number, generation = 0): number {
  if (cursor === undefined) return 0;
  const decoded = decodeCursor(cursor);
  // A cursor longer than any this server issues is not sent back: the answer would be as large as the request.
  const data = cursor.length <= LONGEST_CURSOR ? { cursor } : undefined;
  if (decoded && decoded.list === key && decoded.generation !== generation) {
    throw new ProtocolError(ErrorCodes.InvalidParams, `Invalid cursor for ${key}: the list changed since this cursor was issued. List again without a cursor.`, data);
  }
  if (!decoded || decoded.list !== key || decoded.offset > length) {
    throw new ProtocolError(ErrorCodes.InvalidParams, `Invalid cursor for ${key}: use the nextCursor of the previous page, or list again without a cursor.`, data);
  }
  return decoded.offset;
}

/** The page of `items` that starts at `offset`, with the cursor of the next one when there is more. */
export function pageAt<K extends string, T>(key: K, items: T[], offset: number, pageSize: number | undefined, generation = 0): Page<K, T> {
  if (pageSize === undefined) return { [key]: offset === 0 ? items : items.slice(offset) } as unknown as Page<K, T>;
  const end = Math.min(items.length, offset + pageSize);
  const page = { [key]: items.slice(offset, end) } as unknown as Page<K, T>;
  if (end < items.length) page.nextCursor = encodeCursor(key, end, generation);
  return page;
}

/** `list:offset`, then `:generation` once the list has changed (a list never changed keeps the short form). */
function encodeCursor(list: string, offset: number, generation: number): string {
  return Buffer.from(generation === 0 ? `${list}:${offset}` : `${list}:${offset}:${generation}`).toString('base64url');
}

function decodeCursor(cursor: string): { list: string; offset: number; generation: number } | undefined {
  const m = /^([a-zA-Z]+):(\d+)(?::(\d+))?$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? { list: m[1], offset: Number(m[2]), generation: m[3] === undefined ? 0 : Number(m[3]) } : undefined;
}
