import type { OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** The connection-specific header fields, which an HTTP/2 message may not carry (RFC 9113 §8.2.2). */
export const CONNECTION_FIELDS: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

type HeaderValue = number | string | readonly string[];
type WriteHead = (statusCode: number, ...rest: unknown[]) => ServerResponse;

/**
 * Makes a response to an HTTP/2 request (node's compatibility API) leave out the
 * connection-specific header fields, whoever sets them: this package's refusals
 * (`Connection: close` after a refused body or while draining) and the SDK's node transport
 * (`Connection: keep-alive` on its SSE answers). Node would drop a Connection field itself,
 * printing a process warning, and fail the response for the others. Call it for HTTP/2
 * requests only: HTTP/1 needs these fields. `onClose` runs when a `Connection: close` is left
 * out, the answer meant to end its connection (over HTTP/2, the caller may send GOAWAY).
 */
export function withoutConnectionFields(res: ServerResponse, onClose: () => void): void {
  const { setHeader, appendHeader, writeHead } = res;
  /** True for a field to leave out; notes a `Connection: close`. */
  const dropped = (name: unknown, value: unknown): boolean => {
    if (typeof name !== 'string' || !CONNECTION_FIELDS.has(name.toLowerCase())) return false;
    if (name.toLowerCase() === 'connection' && String(value).toLowerCase() === 'close') onClose();
    return true;
  };
  res.setHeader = function (this: ServerResponse, name: string, value: HeaderValue) {
    return dropped(name, value) ? this : setHeader.call(this, name, value);
  };
  res.appendHeader = function (this: ServerResponse, name: string, value: string | readonly string[]) {
    return dropped(name, value) ? this : appendHeader.call(this, name, value);
  };
  res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    const last = rest.length - 1;
    if (last >= 0 && typeof rest[last] === 'object' && rest[last] !== null) rest[last] = fieldsWithout(rest[last] as OutgoingHttpHeaders | OutgoingHttpHeader[], dropped);
    return (writeHead as WriteHead).call(this, statusCode, ...rest);
  } as ServerResponse['writeHead'];
}

/** `headers` (an object, a flat `[name, value, ...]` list or a list of pairs, as `writeHead` takes them) without the dropped fields. */
function fieldsWithout(headers: OutgoingHttpHeaders | OutgoingHttpHeader[], dropped: (name: unknown, value: unknown) => boolean): OutgoingHttpHeaders | OutgoingHttpHeader[] {
  if (!Array.isArray(headers)) {
    let kept: OutgoingHttpHeaders | undefined;
    for (const name of Object.keys(headers)) {
      if (!dropped(name, headers[name])) continue;
      kept ??= { ...headers };
      delete kept[name];
    }
    return kept ?? headers;
  }
  if (headers.length > 0 && Array.isArray(headers[0])) return (headers as unknown as [string, HeaderValue][]).filter(([name, value]) => !dropped(name, value)) as unknown as OutgoingHttpHeader[];
  const kept: OutgoingHttpHeader[] = [];
  for (let i = 0; i < headers.length; i += 2) if (!dropped(headers[i], headers[i + 1])) kept.push(headers[i], headers[i + 1]);
  return kept;
}
