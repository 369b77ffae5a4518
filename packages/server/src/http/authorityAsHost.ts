import type { IncomingMessage } from 'node:http';

/**
 * Gives a request that came over HTTP/2 (node's compatibility API, `(req, res)`) the Host the
 * rest of the server reads: HTTP/2 names the target's host in the `:authority` pseudo-header,
 * and its clients send no Host header (RFC 9113 §8.3.1). Without this the Host rule would see
 * no host and refuse every HTTP/2 request that arrived on a loopback address. A request that
 * carries both, naming different hosts, is one RFC 9113 §8.3.1 says to treat as malformed:
 * false then (the caller refuses it), true otherwise. An HTTP/1 request has no `:authority`
 * and is left as it is.
 */
export function authorityAsHost(req: Pick<IncomingMessage, 'headers'>): boolean {
  const authority = req.headers[':authority'];
  if (typeof authority !== 'string') return true;
  const host = req.headers.host;
  if (host === undefined) {
    req.headers.host = authority;
    return true;
  }
  return host.toLowerCase() === authority.toLowerCase();
}
