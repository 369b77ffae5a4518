/**
 * Whether a Content-Type value is one media type, `application/json`, with or without parameters;
 * never a substring match (`application/jsonx`). A value holding a `,` outside a quoted string is
 * more than one media type: two Content-Type lines, which a fetch runtime's `Headers` joins with
 * ", " (and the node listener joins alike, `joinedHeader`), or a list a client sent in one line.
 * The field may not repeat (RFC 9110 §5.3, §8.3), so that is not JSON, whatever its first part
 * says. A quoted string that never closes is no Content-Type either. One pass over the value: a
 * hostile header costs no more than its length.
 */
export function isJsonMediaType(value: string): boolean {
  if (value === 'application/json') return true;
  const semi = value.indexOf(';');
  if ((semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase() !== 'application/json') return false;
  if (semi === -1) return true;
  let quoted = false;
  for (let i = semi + 1; i < value.length; i++) {
    const char = value[i];
    if (quoted) {
      if (char === '\\') i++;
      else if (char === '"') quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === ',') return false;
  }
  return !quoted;
}
