import type { IncomingMessage } from 'node:http';
import { hostName } from './hostPolicy';

/**
 * Gives a request that came over HTTP/2 (node's compatibility API, `(req, res)`) the Host the
 * rest of the server reads: HTTP/2 names the target's host in the `:authority` pseudo-header,
 * and its clients send no Host header (RFC 9113 §8.3.1). Without this the Host rule would see
 * no host and refuse every HTTP/2 request that arrived on a loopback address. The routes after
 * the handler (`next()`) see that Host too. A request that carries both, naming different
 * origins, is one RFC 9113 §8.3.1 says to treat as malformed: false then (the caller refuses
 * it), true otherwise. The two name the same origin when their host names match (case aside)
 * and so do their ports, a missing port read as the scheme's default (`localhost` and
 * `localhost:80` over `http`). An HTTP/1 request has no `:authority` and is left as it is.
 */
export function authorityAsHost(req: Pick<IncomingMessage, 'headers'>): boolean {
  const authority = req.headers[':authority'];
  if (typeof authority !== 'string') return true;
  const host = req.headers.host;
  if (host === undefined) {
    req.headers.host = authority;
    return true;
  }
  const defaultPort = req.headers[':scheme'] === 'https' ? '443' : '80';
  return originOf(host, defaultPort) === originOf(authority, defaultPort);
}

/** `name:port` of a Host value, lower-cased, the port filled in; the value as it is (lower-cased) when it has no host name. */
function originOf(value: string, defaultPort: string): string {
  const name = hostName(value);
  if (name === undefined) return value.toLowerCase();
  // hostName keeps the value's first characters, so the port follows the name's length.
  const rest = value.slice(name.length);
  const port = rest === '' || rest === ':' ? defaultPort : rest.slice(1);
  return `${name}:${port}`;
}
