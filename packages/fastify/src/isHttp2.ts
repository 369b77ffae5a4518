import type { FastifyRequest } from 'fastify';

/**
 * Whether a request came over HTTP/2 (`fastify({ http2: true })`). Its response may carry no
 * connection-specific header field such as `Connection` (RFC 9113 §8.2.2): node's compatibility
 * API drops one and prints a process warning. `Connection: close` after a refused body matters over
 * HTTP/1 only, where it keeps the unread rest from being read as the next request; an HTTP/2 stream
 * ends alone.
 */
export function isHttp2(request: FastifyRequest): boolean {
  return request.raw.httpVersionMajor === 2;
}
