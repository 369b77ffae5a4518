/**
 * Why `text` is not an absolute URI as RFC 3986 §4.3 writes one (a scheme, then only the
 * characters of §2, `%` only as `%XX`), or has a fragment or user information; undefined when
 * it is fine. Stricter than the WHATWG URL parser, which quietly repairs spaces, backslashes and
 * raw Unicode: a client must register exactly the string the browser will be sent to.
 */
export function uriSyntaxProblem(text: string): string | undefined {
  const raw = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/u.exec(text);
  if (raw) return `holds ${characterName(raw[0])} at index ${raw.index}: percent-encode it`;
  if (/%(?![0-9A-Fa-f]{2})/.test(text)) return 'holds a % that does not start a percent-encoded octet (%XX)';
  const parts = /^[A-Za-z][A-Za-z0-9+.-]*:(?:\/\/([^/?#]*))?([^?#]*)(\?[^#]*)?(#.*)?$/.exec(text);
  if (!parts) return 'is not an absolute URI: it must start with a scheme and a colon (e.g. https:)';
  const [, authority, path, query = '', fragment] = parts;
  if (fragment !== undefined) return 'has a fragment (#)';
  if (authority !== undefined) {
    if (authority.includes('@')) return 'carries user information (user@ before the host)';
    if (!/^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::\d*)?$/.test(authority)) return `has an invalid host or port ('${authority}')`;
  }
  if (/[[\]]/.test(path! + query)) return 'holds [ or ] outside an IPv6 host: percent-encode them';
  return undefined;
}

function characterName(character: string): string {
  if (character === ' ') return 'a space';
  if (character === '\\') return 'a backslash';
  const code = `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  if (character.codePointAt(0)! < 0x20 || character === '\x7f') return `a control character (${code})`;
  if (character.codePointAt(0)! > 0x7f) return `a non-ASCII character (${code})`;
  return `the character ${character}`;
}
