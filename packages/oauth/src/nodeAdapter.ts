import type { IncomingMessage, ServerResponse } from 'node:http';

const MAX_BODY = 64 * 1024;

/** A node request as a web `Request` for `base` (the issuer's origin: the URL never comes from the Host header). Bodies past 64 KiB are cut off (the endpoints refuse them). */
export async function toWebRequest(req: IncomingMessage, base: string): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  let body: Uint8Array | undefined;
  const parsed = (req as { body?: unknown }).body;
  if (method !== 'GET' && method !== 'HEAD' && parsed !== undefined && req.readableEnded) {
    // A framework's body parser read the stream first (express.urlencoded(), express.json(), Nest's): its result is sent on as the body it came from.
    body = new TextEncoder().encode(typeof parsed === 'string' ? parsed : isForm(headers) ? formOf(parsed) : JSON.stringify(parsed));
    headers.delete('content-length');
  } else if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY) break;
      chunks.push(chunk);
    }
    body = new Uint8Array(Buffer.concat(chunks));
    headers.delete('content-length');
  }
  return new Request(new URL(req.url ?? '/', base), { method, headers, body });
}

/** Writes a web `Response` to a node response (every Set-Cookie kept). */
export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
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
