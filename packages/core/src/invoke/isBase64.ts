/** The base64 alphabet, with at most two '=' at the end. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** What a base64 decoder skips: tab, line feed, form feed, carriage return and space. */
const ASCII_WHITESPACE = /[\t\n\f\r ]/g;

/**
 * Whether `value` decodes as base64 the way `atob` (the web's "forgiving base64") decodes it,
 * which is how MCP's schema checks an image's or audio's `data` and a resource's `blob`:
 * whitespace is skipped, '=' may only pad a length that is a multiple of 4, and a single
 * character left over (a length of 4n + 1) is refused. A regular expression over the string and
 * no decoded copy: an image of megabytes is checked without allocating its bytes.
 */
export function isBase64(value: string): boolean {
  let data = value;
  if (!BASE64.test(data)) {
    data = data.replace(ASCII_WHITESPACE, '');
    if (!BASE64.test(data)) return false;
  }
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  if (padding > 0 && data.length % 4 !== 0) return false;
  return (data.length - padding) % 4 !== 1;
}
