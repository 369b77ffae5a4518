import { decodeUtf8 } from '../rpc/decodeUtf8';

/** A request body parsed as JSON, or the JSON-RPC parse error (400, -32700) that answers it. */
export type ParsedJsonBody = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly status: 400; readonly code: -32700; readonly message: string };

/**
 * Parses the bytes of a JSON request body as Toolwright's HTTP endpoints read it (RFC 8259 §8.1):
 * UTF-8 only (`decodeUtf8`), one leading byte-order mark ignored.
 */
export function parseJsonBody(bytes: Uint8Array): ParsedJsonBody {
  const text = decodeUtf8(bytes);
  if (text === undefined) return { ok: false, status: 400, code: -32700, message: 'Parse error: the request body is not valid UTF-8. Send JSON encoded as UTF-8 (RFC 8259).' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: the request body is not valid JSON.' };
  }
}
