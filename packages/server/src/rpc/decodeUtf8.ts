/** Fatal: bytes that are not UTF-8 throw instead of becoming U+FFFD. It skips one leading byte-order mark. One serves every message (no `stream` option). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of a JSON-RPC message's bytes, or undefined when they are not UTF-8 (MCP messages
 * are UTF-8, and JSON between systems too, RFC 8259 §8.1): checked in the same pass that
 * decodes, so a tool never gets text mangled by replacement characters. One leading
 * byte-order mark is dropped (a parser MAY ignore it).
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
