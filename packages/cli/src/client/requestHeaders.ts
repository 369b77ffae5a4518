import { UsageError } from '../cli/UsageError';

/** An HTTP header name: a token (RFC 9110, section 5.6.2). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** One line of header text: tab, visible ASCII, space and Latin-1, as fetch sends it; never CR, LF or another control character. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The headers `--header 'Name: value'` asks for, checked before anything is sent: a name that is
 * not a token or a value with a line break (header injection) is a usage error that names the
 * header, never its value (which may be a credential).
 */
export function requestHeaders(list: readonly string[]): Record<string, string> {
  const headers = new Map<string, string>();
  for (const header of list) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header '${header}' is not 'Name: value', e.g. --header 'X-Api-Key: abc'.`);
    const name = header.slice(0, colon).trim();
    if (!TOKEN.test(name)) throw new UsageError(`--header ${JSON.stringify(name)} is not a header name: use letters, digits and - (e.g. X-Api-Key), without spaces or line breaks.`);
    // Node's fetch (undici) sends no header named `__proto__`: refused rather than dropped unseen.
    if (name.toLowerCase() === '__proto__') throw new UsageError("--header '__proto__' cannot be sent: Node's fetch drops a header of that name. Use another name.");
    if ([...headers.keys()].some((seen) => seen.toLowerCase() === name.toLowerCase())) throw new UsageError(`--header '${name}' is given twice: pass it once.`);
    headers.set(name, checkedHeaderValue(header.slice(colon + 1).trim(), `--header '${name}'`));
  }
  return Object.fromEntries(headers);
}

/** `value`, when it can be sent as one header line; otherwise a usage error naming `from`, not quoting the value. */
export function checkedHeaderValue(value: string, from: string): string {
  if (!FIELD_VALUE.test(value))
    throw new UsageError(
      `${from}: the value has a line break, a control character or a character beyond Latin-1, which an HTTP header cannot carry. Pass one line of text (percent-encode other characters).`,
    );
  return value;
}
