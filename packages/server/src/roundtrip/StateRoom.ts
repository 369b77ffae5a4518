/** How large a round's sealed `requestState` may be, and what bounds it (see `RequestStateCodec.seal`). */
export interface StateRoom {
  /** The most characters (bytes: the state is ASCII) the state may take. */
  readonly bytes: number;
  /** What bounds it, as the refusal says it after the state's size: "more than …". */
  readonly why: string;
  /** How the server's operator makes more room, as the refusal says it: "or …". */
  readonly raise: string;
}

/** What a retry's JSON-RPC framing takes besides the params the room counts (`jsonrpc`, `id`, `method`, the param names, quotes). */
const FRAMING_BYTES = 256;
const encoder = new TextEncoder();

/**
 * The room a state has in the client's retry, which must echo it in one request of at most
 * `maxRequestBytes` (an HTTP endpoint's `maxBodyBytes`, a stdio line) along with what the
 * request repeats: its method, target and arguments (`binding` spells them out) and its `_meta`.
 * A state larger than that could never come back: the call could never finish.
 */
export function retryRoom(maxRequestBytes: number, binding: string, meta: unknown): StateRoom {
  const repeated = encoder.encode(binding).length + jsonBytes(meta);
  return {
    bytes: maxRequestBytes - repeated - FRAMING_BYTES,
    why: `more than the client could send back: a request to this server may hold at most ${maxRequestBytes} bytes (an HTTP endpoint's maxBodyBytes, a stdio line's 16 MiB), and the retry repeats the call's arguments and _meta (${repeated} bytes)`,
    raise: "raise the server's request limit (maxBodyBytes, over HTTP)",
  };
}

/** The UTF-8 length of `value`'s JSON; 0 when it has none (or is too deep for `JSON.stringify`: then the SDK would have refused it). */
function jsonBytes(value: unknown): number {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : encoder.encode(text).length;
  } catch {
    return 0;
  }
}
