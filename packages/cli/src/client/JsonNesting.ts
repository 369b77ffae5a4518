/**
 * The deepest a server's message may nest objects and arrays. Reading, checking and printing a
 * message recurse once per level: a few thousand levels overflow the stack (a RangeError and a
 * stack trace instead of a message), and no real result or schema comes near this many.
 */
export const MAX_MESSAGE_DEPTH = 500;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Follows how deeply JSON text nests its objects and arrays, chunk by chunk (bytes or text: the
 * characters it counts are ASCII, which no other UTF-8 byte or UTF-16 unit equals), without
 * parsing it. Brackets inside strings are not counted. `perEvent` reads an event stream: a
 * string ends at a line end (JSON strings hold no raw line break) and the depth starts again
 * after a blank line (the end of an event), so each event's data is counted on its own.
 */
export class JsonNesting {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Whether the current line holds anything but a carriage return (event streams only). */
  private lineHasText = false;

  constructor(
    private readonly limit = MAX_MESSAGE_DEPTH,
    private readonly perEvent = false,
  ) {}

  /** Reads `chunk`; false once the text has nested deeper than the limit. */
  read(chunk: Uint8Array | string): boolean {
    const text = typeof chunk === 'string';
    for (let i = 0; i < chunk.length; i++) {
      const code = text ? chunk.charCodeAt(i) : chunk[i];
      if (this.perEvent && code === NEWLINE) {
        if (!this.lineHasText) this.depth = 0;
        this.lineHasText = this.inString = this.escaped = false;
        continue;
      }
      if (code !== CARRIAGE_RETURN) this.lineHasText = true;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) this.inString = false;
      } else if (code === QUOTE) this.inString = true;
      else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
        if (++this.depth > this.limit) return false;
      } else if ((code === CLOSE_ARRAY || code === CLOSE_OBJECT) && this.depth > 0) this.depth--;
    }
    return true;
  }
}

/** What to say when `from` sent a message nesting deeper than MAX_MESSAGE_DEPTH, with how to fix the server. */
export function tooDeepMessage(from: string): string {
  return `${from} sent a message that nests objects and arrays more than ${MAX_MESSAGE_DEPTH} levels deep, more than toolwright reads. Flatten the result or schema.`;
}
