import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Whether a response may carry connection-specific header fields (Connection): not over HTTP/2
 * (RFC 9113 §8.2.2), where node's compatibility API drops a Connection header and prints a
 * process warning about it. `Connection: close` after a refused body matters over HTTP/1 only:
 * there it keeps the unread rest from being read as the next request; an HTTP/2 stream ends alone.
 */
export function connectionHeadersAllowed(res: ServerResponse): boolean {
  return (res as { req?: IncomingMessage }).req?.httpVersionMajor !== 2;
}
