import type { IncomingMessage } from 'node:http';

/**
 * A header's value as a fetch handler's `Headers` reads it: every line of it, joined with ", ".
 * Node keeps only the first line of a field that may not repeat (Content-Type among them), so
 * without this the node listener would serve a request that the fetch handler refuses. Only a
 * value node left as the first line is joined: a value a host or middleware set in `req.headers`
 * before this handler (a gateway that settles the media type itself) is the one read. `name`
 * is lower-case.
 */
export function joinedHeader(req: Pick<IncomingMessage, 'headers' | 'rawHeaders'>, name: string): string | undefined {
  const first = req.headers[name];
  if (Array.isArray(first)) return first.join(', ');
  const raw = req.rawHeaders as readonly string[] | undefined;
  // A request a host built by hand may carry no raw lines: its one value is all there is.
  if (first === undefined || raw === undefined) return first;
  let values: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length !== name.length || raw[i].toLowerCase() !== name) continue;
    if (values) values.push(raw[i + 1]);
    else values = [raw[i + 1]];
  }
  return values && values.length > 1 && values[0] === first ? values.join(', ') : first;
}
