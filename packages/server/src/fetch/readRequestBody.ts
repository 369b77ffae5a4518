import type { BodyOutcome } from '../http/readJsonBody';

/**
 * Reads and parses the JSON body of a web `Request`, refusing more than `limit` bytes (413)
 * without buffering them: the Content-Length is checked first, then the running total as the
 * stream arrives. A body that has not fully arrived after `timeoutMs` gets 408.
 */
export async function readRequestBody(request: Request, limit: number, timeoutMs: number): Promise<BodyOutcome> {
  const declared = Number(request.headers.get('content-length'));
  if (declared > limit) return tooLarge(limit);
  if (!request.body) return parse(new Uint8Array(0));
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === 'timeout') {
        void reader.cancel().catch(() => undefined);
        return { ok: false, status: 408, code: -32000, message: `Request Timeout: the body did not arrive within ${timeoutMs} ms. Send it at once, or raise timeouts.bodyMs.` };
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limit) {
        void reader.cancel().catch(() => undefined);
        return tooLarge(limit);
      }
      chunks.push(next.value);
    }
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: the request body could not be read.' };
  } finally {
    clearTimeout(timer);
  }
  return parse(chunks.length === 1 ? chunks[0] : concat(chunks, size));
}

/** Stateless (no `stream` option): one serves every request. */
const decoder = new TextDecoder();

function parse(bytes: Uint8Array): BodyOutcome {
  try {
    return { ok: true, value: JSON.parse(decoder.decode(bytes)) };
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: the request body is not valid JSON.' };
  }
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

function tooLarge(limit: number): BodyOutcome {
  return { ok: false, status: 413, code: -32000, message: `Payload too large: the request body exceeds ${limit} bytes. Send less data, or raise maxBodyBytes.` };
}
