/**
 * Whether an `Accept` header lists `mediaType` (lower-case `type/subtype`) as acceptable:
 * named exactly, as one of its comma-separated media ranges, with a quality above zero
 * (`q=0` means "not acceptable", RFC 9110 §12.5.1). Wildcards do not count: the MCP spec
 * asks clients to list the types themselves.
 */
export function acceptsMediaType(header: string | undefined, mediaType: string): boolean {
  if (!header) return false;
  let accepted = false;
  for (const range of header.split(',')) {
    const [type, ...params] = range.split(';');
    if (type.trim().toLowerCase() !== mediaType) continue;
    if (qualityOf(params) === 0) return false;
    accepted = true;
  }
  return accepted;
}

function qualityOf(params: string[]): number {
  for (const param of params) {
    const [name, value] = param.split('=');
    if (name.trim().toLowerCase() === 'q') return Number(value?.trim());
  }
  return 1;
}
