/**
 * Whether an IP address is a public unicast one a server may fetch from on a client's behalf
 * (SSRF defence). Refused: loopback, private (RFC 1918, unique local), link-local, CGNAT,
 * unspecified, multicast, broadcast, documentation and benchmarking ranges, and IPv6 forms
 * that embed or tunnel IPv4 (mapped, NAT64, 6to4, Teredo) unless the IPv4 inside is public.
 * IPv6 is allowed only in global unicast 2000::/3. Anything unparsable is not public.
 */
export function isPublicAddress(address: string): boolean {
  const v4 = parseIPv4(address);
  if (v4) return isPublicIPv4(v4);
  const v6 = parseIPv6(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  return v6 ? isPublicIPv6(v6) : false;
}

const V4_BLOCKED: readonly [number, number][] = [
  [0x00000000, 8], // "this" network
  [0x0a000000, 8], // private
  [0x64400000, 10], // carrier-grade NAT
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local (cloud metadata at 169.254.169.254)
  [0xac100000, 12], // private
  [0xc0000000, 24], // IETF protocol assignments
  [0xc0000200, 24], // documentation
  [0xc0586300, 24], // 6to4 relay anycast
  [0xc0a80000, 16], // private
  [0xc6120000, 15], // benchmarking
  [0xc6336400, 24], // documentation
  [0xcb007100, 24], // documentation
  [0xe0000000, 4], // multicast
  [0xf0000000, 4], // reserved and broadcast
];

function isPublicIPv4(bytes: number[]): boolean {
  const value = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  return !V4_BLOCKED.some(([network, bits]) => value >>> (32 - bits) === network >>> (32 - bits));
}

function isPublicIPv6(words: number[]): boolean {
  const embedded = (high: number, low: number) => isPublicIPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible): the IPv4 inside decides.
  if (words.slice(0, 5).every((w) => w === 0) && (words[5] === 0xffff || words[5] === 0)) return embedded(words[6]!, words[7]!);
  // 64:ff9b::/96 NAT64: the IPv4 inside decides.
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) return embedded(words[6]!, words[7]!);
  if ((words[0]! & 0xe000) !== 0x2000) return false; // not global unicast 2000::/3 (covers ::1, fc00::/7, fe80::/10, ff00::/8)
  if (words[0] === 0x2001 && words[1]! < 0x0200) return false; // 2001::/23 IETF protocol assignments (Teredo among them)
  if (words[0] === 0x2001 && words[1] === 0x0db8) return false; // documentation
  if (words[0] === 0x2002) return embedded(words[1]!, words[2]!); // 6to4
  return true;
}

function parseIPv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((part) => (/^(0|[1-9]\d{0,2})$/.test(part) ? Number(part) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : undefined;
}

function parseIPv6(text: string): number[] | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.split('::').length > 2) return undefined;
  let tail: number[] = [];
  let body = text;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (!v4) return undefined;
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    // `::a.b.c.d` keeps its `::`; `x:y:a.b.c.d` drops the colon before the IPv4 part.
    body = text[lastColon - 1] === ':' ? text.slice(0, lastColon + 1) : text.slice(0, lastColon);
  }
  const toWords = (part: string) => (part === '' ? [] : part.split(':').map((w) => (/^[0-9a-fA-F]{1,4}$/.test(w) ? parseInt(w, 16) : NaN)));
  let words: number[];
  if (body.includes('::')) {
    const [head, rest] = body.split('::') as [string, string];
    const a = toWords(head);
    const b = toWords(rest);
    const missing = 8 - tail.length - a.length - b.length;
    if (missing < 1) return undefined;
    words = [...a, ...new Array<number>(missing).fill(0), ...b, ...tail];
  } else {
    words = [...toWords(body), ...tail];
  }
  return words.length === 8 && words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : undefined;
}
