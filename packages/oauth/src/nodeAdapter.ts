import type { IncomingMessage, ServerResponse } from 'node:http';
import { ToolwrightError } from '@toolwright/core';

const MAX_BODY = 64 * 1024;

/**
 * A node request as a web `Request` for `base` (the issuer's origin: the URL never comes from the
 * Host header), from its `headers` (`nodeHeaders`) and its `body` (`nodeRequestBody`).
 */
export function toWebRequest(req: IncomingMessage, base: string, headers: Headers, body: Uint8Array | undefined): Request {
  return new Request(new URL(req.url ?? '/', base), { method: req.method ?? 'GET', headers, body });
}

/**
 * The body of a node request as a web `Request` takes it: none for GET and HEAD; what a
 * framework's body parser read first, sent on as it came; else the stream's, cut off past 64 KiB
 * (the endpoints refuse it). `Content-Length` is removed from `headers` (the body sent on may
 * differ in length). The promise rejects only when the stream fails to deliver the body (the
 * client's fault); a parsed body that cannot be sent on (the host's) throws at once instead.
 */
export function nodeRequestBody(req: IncomingMessage, headers: Headers): Promise<Uint8Array | undefined> {
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return Promise.resolve(undefined);
  const parsed = (req as { body?: unknown }).body;
  headers.delete('content-length');
  // A framework's body parser read the stream first (express.urlencoded(), express.json(), Nest's): its result is sent on as the body it came from.
  if (parsed !== undefined && req.readableEnded) {
    return Promise.resolve(new TextEncoder().encode(typeof parsed === 'string' ? parsed : isForm(headers) ? formOf(parsed) : JSON.stringify(parsed)));
  }
  return readCappedBody(req);
}

/**
 * The body's first `MAX_BODY + 1` bytes (one past the limit, so the endpoints still see it is too
 * large). The rest is read and dropped in the background rather than the stream destroyed:
 * destroying it closes the socket, and the client of a kept-alive connection then gets no
 * answer at all instead of the endpoint's error.
 */
function readCappedBody(req: IncomingMessage): Promise<Uint8Array> {
  if (req.readableEnded) return Promise.resolve(new Uint8Array()); // read before (a body parser that kept nothing)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData).off('end', stop).off('error', reject).off('close', closed);
      req.resume();
      resolve(new Uint8Array(Buffer.concat(chunks)));
    };
    const closed = () => reject(new ToolwrightError('Toolwright oauth: the client closed the connection before the request body ended.'));
    const onData = (chunk: Buffer) => {
      chunks.push(chunk.subarray(0, MAX_BODY + 1 - size));
      size += chunk.length;
      if (size > MAX_BODY) stop();
    };
    req.on('data', onData).on('end', stop).on('error', reject).on('close', closed);
  });
}

/** Writes a web `Response` to a node response (every Set-Cookie kept). The body is read first, so a body that fails to read leaves the response unanswered for the caller to answer. */
export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  res.end(body);
}

/**
 * A parsed form as it was sent: a parameter the parser gathered into an array (`a=1&a=2`) is
 * repeated again, so the endpoints still refuse repeated parameters (RFC 6749 §3.1).
 */
function formOf(parsed: unknown): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value]) form.append(name, String(item));
  }
  return form.toString();
}

function isForm(headers: Headers): boolean {
  return (headers.get('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
}
