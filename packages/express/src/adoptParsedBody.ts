import type { Request } from 'express';
import { bodyEncodingRefusal, parseJsonBody } from '@toolwright/server/http';
import type { BodyParserRefusal } from './bodyParserRefusal';

/**
 * Makes a body a parser before the middleware already read into the JSON value the MCP handler
 * takes, within the endpoint's `maxBodyBytes` (the stream is spent: the handler cannot measure
 * it again). `express.json()` left a value: its size is the Content-Length, or, sent chunked or
 * compressed, at least its JSON's length. `express.text()` or `express.raw()` left the text or
 * bytes of an `application/json` body: they are measured and parsed here, as the handler's own
 * reader would (bytes declared in a charset other than UTF-8 are refused, 415). Returns the refusal to answer, or undefined once `req.body` is ready (or there
 * was no body read before).
 */
export function adoptParsedBody(req: Request, maxBodyBytes: number): BodyParserRefusal | undefined {
  const body: unknown = req.body;
  if (body === undefined || !(req.readableEnded || req.complete)) return undefined;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    // Another media type is the handler's to refuse (415), with the body left as it is.
    if (!req.is('application/json')) return undefined;
    if (Buffer.byteLength(body) > maxBodyBytes) return tooLarge(maxBodyBytes);
    // express.raw() inflated the bytes but left them in their charset (express.text() decoded them): read as UTF-8, another one would lose its text.
    const foreign = Buffer.isBuffer(body) ? bodyEncodingRefusal({ contentType: req.headers['content-type'] }) : undefined;
    if (foreign) return refusal(foreign.status, foreign.code, foreign.message);
    // Read as the handler's own reader reads bytes: not UTF-8, a 400 (express.text() decoded its text already).
    const parsed = parseJsonBody(Buffer.isBuffer(body) ? body : Buffer.from(body));
    if (!parsed.ok) return refusal(parsed.status, parsed.code, parsed.message);
    req.body = parsed.value;
    return undefined;
  }
  const size = sizeOf(req, body);
  // express.json() reads an empty body as {}: the handler's own reader finds no JSON in it.
  if (size === 0) return refusal(400, -32700, 'Parse error: the request body is not valid JSON.');
  return size > maxBodyBytes ? tooLarge(maxBodyBytes) : undefined;
}

/** The bytes a parsed body came in: its Content-Length (body-parser checked it), else a lower bound. */
function sizeOf(req: Request, body: unknown): number {
  const encoding = req.headers['content-encoding'];
  const declared = Number(req.headers['content-length']);
  if ((encoding === undefined || encoding === 'identity') && Number.isSafeInteger(declared)) return declared;
  return Buffer.byteLength(JSON.stringify(body) ?? '');
}

function tooLarge(limit: number): BodyParserRefusal {
  return refusal(413, -32000, `Payload too large: the request body exceeds ${limit} bytes. Send less data, or raise maxBodyBytes.`);
}

function refusal(status: number, code: number, message: string): BodyParserRefusal {
  return { status, body: { jsonrpc: '2.0', error: { code, message }, id: null } };
}
