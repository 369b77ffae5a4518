const MAX_CHARS = 300;

/**
 * Text from outside (an error's message, a claim) made fit for one log line: control
 * characters (CR, LF, escape sequences...) and the line and paragraph separators are written
 * as `\uXXXX`, and it is cut to a few hundred characters. For logs only: never put it in a header.
 */
export function logSafe(value: unknown): string {
  const text = value instanceof Error ? `${value.name}: ${value.message}` : String(value);
  const cut = text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}…` : text;
  let out = '';
  for (const c of cut) {
    const code = c.charCodeAt(0);
    out += code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 ? `\\u${code.toString(16).padStart(4, '0')}` : c;
  }
  return out;
}
