import type { ServerResponse } from 'node:http';

/**
 * Whether nothing more can reach the client on `res`: it closed (the client went away, or it
 * was destroyed). Node's HTTP/2 compatibility response has neither `destroyed` nor `closed`
 * (Node 20), so a cancelled HTTP/2 stream would read as still open: its stream says instead.
 */
export function responseClosed(res: ServerResponse): boolean {
  return res.destroyed || res.closed || (res as { stream?: { destroyed?: boolean } }).stream?.destroyed === true;
}
