/**
 * Characters a terminal obeys rather than shows: C0 controls but tab and newline (ESC opens
 * colour, cursor, OSC 52 clipboard and OSC 8 hyperlink sequences; CR overwrites the line; BEL
 * rings), DEL, the C1 controls U+0080-U+009F (U+009B is a one-character CSI), and the
 * bidirectional marks, embeddings, overrides and isolates that reorder what is shown (U+202E).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const escape = (c: string): string => {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * Text from a server made safe to print on a terminal: each character that would drive the
 * terminal is shown as its escape (`\x1b`, `\x0d`, `\u202e`), so a hostile or broken server
 * cannot recolour, rewrite, hide or reorder output, set the clipboard or plant links. Tabs and
 * newlines stay (descriptions span lines); a CRLF line end becomes a newline.
 */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, escape);
}

/** A copy of a JSON value with every string and key made terminal-safe, for printing it as text. */
export function terminalSafeValue<T>(value: T): T {
  if (typeof value === 'string') return terminalSafe(value) as T;
  if (Array.isArray(value)) return value.map(terminalSafeValue) as T;
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries defines own properties: a key named __proto__ stays a key.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [terminalSafe(key), terminalSafeValue(item)])) as T;
}

/**
 * `JSON.stringify` (indented) for output: exact JSON, parsing to the same value, but with the
 * characters `JSON.stringify` leaves raw and a terminal would obey (DEL, C1 controls, bidi
 * overrides) written as `\u` escapes. They can only occur inside strings, where the escape is
 * the same character.
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
