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
const SPACE = 0x20;
const COLON = 0x3a;
/**
 * What the SDK's client skips at the start of an event stream, in order, each if it is there: a
 * byte-order mark (its text decoder), then the mark's three bytes read as the characters `ï»¿`
 * (its event parser). As bytes (UTF-8) and as text (UTF-16 units).
 */
const LEADS_IN_BYTES = [
  [0xef, 0xbb, 0xbf],
  [0xc3, 0xaf, 0xc2, 0xbb, 0xc2, 0xbf],
];
const LEADS_IN_TEXT = [[0xfeff], [0xef, 0xbb, 0xbf]];
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** Where an event stream's line is: its field name, the value of a `data` field, or a line of no concern (a comment, `id`, `event`, `retry`). */
const enum Field {
  Name,
  Data,
  Other,
}

/**
 * Follows how deeply JSON text nests its objects and arrays, chunk by chunk (bytes or text: the
 * characters it counts are ASCII, which no other UTF-8 byte or UTF-16 unit equals), without
 * parsing it. Brackets inside strings are not counted. `perEvent` reads an event stream: only
 * the values of `data` fields are counted (a comment, `id` or `event` line could otherwise
 * close the brackets the data opened), a line ends at CR, LF or CRLF and ends any string (JSON
 * strings hold no raw line break), and the depth starts again after a blank line (the end of
 * an event), so each event's data is counted on its own.
 */
export class JsonNesting {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Event streams only: the current line's part, the field name read so far, and whether a CR just ended a line (its LF ends no other). */
  private field = Field.Name;
  private name = '';
  private afterCr = false;
  private skipSpace = false;
  /** Which of the leads the client skips (see LEADS_IN_BYTES) is being read, and how much of it. */
  private lead = 0;
  private leadRead = 0;

  constructor(
    private readonly limit = MAX_MESSAGE_DEPTH,
    private readonly perEvent = false,
  ) {}

  /** Reads `chunk`; false once the text has nested deeper than the limit. */
  read(chunk: Uint8Array | string): boolean {
    const text = typeof chunk === 'string';
    for (let i = 0; i < chunk.length; i++) {
      const code = text ? chunk.charCodeAt(i) : chunk[i];
      if (this.perEvent && !this.readEventStream(code, text)) continue;
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

  /** Follows an event stream's lines and fields; true when `code` belongs to a `data` field's value. */
  private readEventStream(code: number, text: boolean): boolean {
    const leads = text ? LEADS_IN_TEXT : LEADS_IN_BYTES;
    while (this.lead < leads.length) {
      const lead = leads[this.lead];
      if (code === lead[this.leadRead]) {
        if (++this.leadRead === lead.length) [this.lead, this.leadRead] = [this.lead + 1, 0];
        return false;
      }
      // Not this lead: the next one may start here; part of one read already means neither is there.
      this.lead = this.leadRead === 0 ? this.lead + 1 : leads.length;
      this.leadRead = 0;
    }
    const afterCr = this.afterCr;
    this.afterCr = code === CARRIAGE_RETURN;
    if (code === NEWLINE || code === CARRIAGE_RETURN) {
      if (code === NEWLINE && afterCr) return false;
      // A blank line ends the event.
      if (this.field === Field.Name && this.name === '') this.depth = 0;
      this.field = Field.Name;
      this.name = '';
      this.inString = this.escaped = this.skipSpace = false;
      return false;
    }
    if (this.field === Field.Data) {
      if (!this.skipSpace) return true;
      this.skipSpace = false;
      return code !== SPACE;
    }
    if (this.field === Field.Other) return false;
    if (code === COLON) {
      this.field = this.name === 'data' ? Field.Data : Field.Other;
      this.skipSpace = true;
    } else if (this.name.length < 5) this.name += String.fromCharCode(code);
    // A name longer than `data` is another field's (a line of `data` alone has an empty value).
    else this.field = Field.Other;
    return false;
  }
}

/** What to say when `from` sent a message nesting deeper than MAX_MESSAGE_DEPTH, with how to fix the server. */
export function tooDeepMessage(from: string): string {
  return `${from} sent a message that nests objects and arrays more than ${MAX_MESSAGE_DEPTH} levels deep, more than toolwright reads. Flatten the result or schema.`;
}
