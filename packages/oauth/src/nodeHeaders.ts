import type { IncomingMessage } from 'node:http';
import { joinedLines } from '@toolwright/core/internal';

/**
 * A node request's headers as a fetch runtime hands them over. They are built from
 * `req.headers`, which is what a host or middleware before the authorization server may have
 * edited (a gateway that removes the client's Authorization for itself, or sets the one to
 * use), so a field removed there is not seen here. Node keeps only the first line of a field
 * that may not repeat (Authorization, Content-Type); where that first line is still the value
 * and the request had more lines of the field, they are joined with ", " as `Headers` joins
 * them, so two Authorization headers are refused as on a fetch runtime instead of
 * authenticating with the first. HTTP/2 pseudo-headers (`:path`, `:method`, `:authority`,
 * `:scheme`), which node's HTTP/2 compatibility API lists among the headers, are left out:
 * they are no header fields, and `Headers` refuses their names.
 */
export function nodeHeaders(req: Pick<IncomingMessage, 'headers' | 'rawHeaders'>): Headers {
  const repeated = repeatedLines(req.rawHeaders as readonly string[] | undefined);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) {
      for (const item of value) headers.append(name, item);
      continue;
    }
    // Only a value node left as the first line is joined: one the host rewrote, or one node joined itself (Cookie with "; "), stays as it is.
    headers.append(name, joinedLines(value, repeated?.get(name)));
  }
  return headers;
}

/** The values of each field (by lower-case name) sent in more than one raw line; undefined when none is. */
function repeatedLines(raw: readonly string[] | undefined): Map<string, string[]> | undefined {
  // A request a host built by hand may carry no raw lines: its `headers` are all there is.
  if (!raw) return undefined;
  const lines = new Map<string, string[]>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const values = lines.get(name);
    if (values) values.push(raw[i + 1]!);
    else lines.set(name, [raw[i + 1]!]);
  }
  for (const [name, values] of lines) if (values.length < 2) lines.delete(name);
  return lines.size > 0 ? lines : undefined;
}
