import { bodyEncodingRefusal } from '../http/bodyEncodingRefusal';
import type { BodyOutcome } from '../http/readJsonBody';
import { parseJsonBody } from '../http/parseJsonBody';

/**
 * Reads and parses the JSON body of a web `Request`, refusing more than `limit` bytes (413)
 * without buffering them, and giving 408 to a body that has not fully arrived after `timeoutMs`.
 * - Compressed, or declared in a charset other than UTF-8: 415, unread (`bodyEncodingRefusal`).
 * - With a Content-Length: over the limit, refused at once; within it, read whole by the runtime
 *   (`arrayBuffer()`, one native read; the HTTP layer delivers no more than the declared length,
 *   and the size is checked again after), raced once against the timer. On workerd a stream
 *   reader costs several times more per request than the native read (bench/edge).
 * - Without one (chunked): read as a stream, counting the bytes as they arrive; the timer cancels
 *   the reader, which ends the read waiting for the body, so each chunk is one plain `read()`.
 * - Then parsed as UTF-8 JSON (`parseJsonBody`: bytes that are not UTF-8 get 400).
 */
export async function readRequestBody(request: Request, limit: number, timeoutMs: number): Promise<BodyOutcome> {
  const headers = request.headers;
  const unreadable = bodyEncodingRefusal({ contentEncoding: headers.get('content-encoding') ?? undefined, contentType: headers.get('content-type') ?? undefined });
  if (unreadable) return { ok: false, ...unreadable };
  const length = headers.get('content-length');
  const declared = length === null ? Number.NaN : Number(length);
  if (declared > limit) return tooLarge(limit);
  // Not through `request.body`: on workerd, reading it makes a stream object the native read does not need (a request without a body reads as empty).
  if (Number.isSafeInteger(declared) && declared >= 0) return readWhole(request, limit, timeoutMs);
  const stream = request.body;
  return stream ? readStream(stream, limit, timeoutMs) : parseJsonBody(new Uint8Array(0));
}

/** A body of declared length: one native read, raced against the timer. */
async function readWhole(request: Request, limit: number, timeoutMs: number): Promise<BodyOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  let bytes: ArrayBuffer | undefined;
  try {
    bytes = await Promise.race([request.arrayBuffer(), late]);
  } catch {
    return unreadable();
  } finally {
    clearTimeout(timer);
  }
  if (bytes === undefined) return timedOut(timeoutMs);
  // A Request made in process may carry a Content-Length its body does not keep to.
  if (bytes.byteLength > limit) return tooLarge(limit);
  return parseJsonBody(new Uint8Array(bytes));
}

/** A body of unknown length: read chunk by chunk, counting the bytes. */
async function readStream(stream: ReadableStream<Uint8Array>, limit: number, timeoutMs: number): Promise<BodyOutcome> {
  const reader = stream.getReader();
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    reader.cancel().catch(() => undefined);
  }, timeoutMs);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await reader.read();
      if (late) return timedOut(timeoutMs);
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limit) {
        reader.cancel().catch(() => undefined);
        return tooLarge(limit);
      }
      chunks.push(next.value);
    }
  } catch {
    // A runtime may reject the pending read when the timer cancels it.
    return late ? timedOut(timeoutMs) : unreadable();
  } finally {
    clearTimeout(timer);
  }
  return parseJsonBody(chunks.length === 1 ? chunks[0] : concat(chunks, size));
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

function unreadable(): BodyOutcome {
  return { ok: false, status: 400, code: -32700, message: 'Parse error: the request body could not be read.' };
}

function timedOut(timeoutMs: number): BodyOutcome {
  return { ok: false, status: 408, code: -32000, message: `Request Timeout: the body did not arrive within ${timeoutMs} ms. Send it at once, or raise timeouts.bodyMs.` };
}

function tooLarge(limit: number): BodyOutcome {
  return { ok: false, status: 413, code: -32000, message: `Payload too large: the request body exceeds ${limit} bytes. Send less data, or raise maxBodyBytes.` };
}
