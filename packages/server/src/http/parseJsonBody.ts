/** A request body parsed as JSON, or the JSON-RPC parse error (400, -32700) that answers it. */
export type ParsedJsonBody = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly status: 400; readonly code: -32700; readonly message: string };

/** Fatal: bytes that are not UTF-8 throw instead of becoming U+FFFD. It skips one leading byte-order mark. One serves every body (no `stream` option). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses the bytes of a JSON request body as Toolwright's HTTP endpoints read it (RFC 8259 §8.1):
 * UTF-8 only, checked in the same pass that decodes it, so a tool never gets text mangled by
 * replacement characters; one leading byte-order mark is ignored (a parser MAY ignore it).
 */
export function parseJsonBody(bytes: Uint8Array): ParsedJsonBody {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: the request body is not valid UTF-8. Send JSON encoded as UTF-8 (RFC 8259).' };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: the request body is not valid JSON.' };
  }
}
