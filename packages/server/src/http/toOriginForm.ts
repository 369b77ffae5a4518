import type { IncomingMessage } from 'node:http';

/**
 * Rewrites a request whose target is in absolute form (`http://host:port/path?query`) to the
 * origin form the rest of the server reads (`/path?query`), and its Host to the target's host:
 * RFC 9112 §3.2.2 says a server MUST accept the absolute form, and take the host from it rather
 * than from the Host header. The path is kept as it was sent (not normalized), as in origin form.
 * Any other target (`*`, another scheme, an authority with user information) is left as it is.
 */
export function toOriginForm(req: IncomingMessage): void {
  const target = req.url ?? '';
  const lower = target.slice(0, 8).toLowerCase();
  const start = lower.startsWith('https://') ? 8 : lower.startsWith('http://') ? 7 : -1;
  if (start < 0) return;
  let end = start;
  while (end < target.length && target[end] !== '/' && target[end] !== '?' && target[end] !== '#') end++;
  const authority = target.slice(start, end);
  if (authority === '' || authority.includes('@')) return;
  const rest = target.slice(end);
  req.url = rest.startsWith('/') ? rest : `/${rest}`;
  req.headers.host = authority;
}
