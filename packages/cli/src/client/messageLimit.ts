/**
 * The largest message toolwright reads from a server: a line on its stdout, an HTTP answer,
 * one line of an event stream. Past it the connection is ended rather than read into memory
 * (a 200 MB result or a 2 GB answer would otherwise take the process down).
 */
export const MAX_MESSAGE_SIZE = 64 * 1024 * 1024;

/** What to say when `from` sent more than MAX_MESSAGE_SIZE, with how to fix the server. */
export function tooLargeMessage(from: string): string {
  return `${from} sent a message of more than ${MAX_MESSAGE_SIZE / 1024 / 1024} MiB, more than toolwright reads. Page long lists (nextCursor), and return large content as a resource link or in parts.`;
}
