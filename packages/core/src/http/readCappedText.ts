/**
 * A request's or response's body as UTF-8 text, or undefined when it is larger than `maxBytes`:
 * a declared `Content-Length` past the cap is refused unread, and a body is read no further
 * than the cap (the rest is cancelled). Web streams only: it runs wherever `fetch` does.
 */
export async function readCappedText(message: Request | Response, maxBytes: number): Promise<string | undefined> {
  if (Number(message.headers.get('content-length') ?? '0') > maxBytes) {
    await message.body?.cancel();
    return undefined;
  }
  if (!message.body) return '';
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}
