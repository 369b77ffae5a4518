import type { IncomingMessage } from 'node:http';
import { bodyEncodingRefusal } from './bodyEncodingRefusal';
import { parseJsonBody } from './parseJsonBody';

export type BodyOutcome =
  | { ok: true; value: unknown }
  | {
      ok: false;
      status: 400 | 408 | 413 | 415 | 500;
      code: number;
      message: string;
      headers?: Record<string, string>;
      /** For the server's log, when the fault is the server's own (its mount), not the client's. */
      log?: string;
    };

/**
 * Reads and parses a JSON request body, refusing more than `limit` bytes (413) without
 * buffering them: the Content-Length is checked first, then the running total. A body
 * that has not fully arrived after `timeoutMs` gets 408, so a stalled client holds no buffer.
 * A body already parsed by a framework (express.json()) is used as is; a stream something else
 * read to its end without leaving the parsed body on `req.body` gets 500 at once (no byte of it
 * would ever arrive, and the client is not at fault: the fix, for the server's log, is in `log`); one this reader would
 * not read as sent (compressed, or declared in a charset other than UTF-8) gets 415 unread;
 * bytes that are not UTF-8 get 400 (`parseJsonBody`). `contentType` is the request's Content-Type,
 * every line of it joined (`joinedHeader`), which the caller has read already for its own checks.
 */
export function readJsonBody(req: IncomingMessage & { body?: unknown }, contentType: string | undefined, limit: number, timeoutMs: number): Promise<BodyOutcome> {
  if (req.body !== undefined && (req.readableEnded || req.complete)) return Promise.resolve({ ok: true, value: req.body });
  if (req.readableEnded) return Promise.resolve(SPENT);
  const unreadable = bodyEncodingRefusal({ contentEncoding: req.headers['content-encoding'], contentType });
  if (unreadable) return Promise.resolve({ ok: false, ...unreadable });
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.resolve(tooLarge(limit));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const timer = setTimeout(() => {
      chunks.length = 0;
      finish({ ok: false, status: 408, code: -32000, message: `Request Timeout: the body did not arrive within ${timeoutMs} ms. Send it at once, or raise timeouts.bodyMs.` });
    }, timeoutMs);
    const finish = (outcome: BodyOutcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop buffering but keep draining, so the 413 can still be written on this socket.
        req.resume();
        finish(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(parseJsonBody(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    const onError = () => finish({ ok: false, status: 400, code: -32700, message: 'Parse error: the request body could not be read.' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** A body parser mounted before the endpoint read the stream and kept what it parsed to itself (Koa's `ctx.request.body`). */
const SPENT: BodyOutcome = {
  ok: false,
  status: 500,
  code: -32603,
  message: 'Internal error: the request body was read before the MCP endpoint got it. The server log has the details.',
  log: 'the body of a POST was read before the MCP endpoint got it (by a body parser mounted before it) and not handed on as req.body. Mount the endpoint before the body parser, or set req.body to the parsed JSON.',
};

function tooLarge(limit: number): BodyOutcome {
  return { ok: false, status: 413, code: -32000, message: `Payload too large: the request body exceeds ${limit} bytes. Send less data, or raise maxBodyBytes.` };
}
