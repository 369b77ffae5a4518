/** What `responseClosed` reads of a node response: node:http's `ServerResponse`, or node:http2's compatibility one. */
export interface ClosableResponse {
  readonly destroyed?: boolean;
  readonly closed?: boolean;
  readonly stream?: { readonly destroyed?: boolean };
}

/**
 * Whether nothing more can reach the client on `res`: it closed (the client went away, or it
 * was destroyed). Node's HTTP/2 compatibility response has neither `destroyed` nor `closed`
 * (Node 20 through 26), so a cancelled HTTP/2 stream would read as still open: its stream says instead.
 */
export function responseClosed(res: ClosableResponse): boolean {
  return res.destroyed === true || res.closed === true || res.stream?.destroyed === true;
}
