/** What the joining reads of a node request: its `headers` (as node, or a host before Toolwright, left them) and its raw lines. */
export interface HeaderLines {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The header lines as sent, name then value; a request a host built by hand may have none. */
  readonly rawHeaders?: readonly string[];
}

/**
 * A field's value as a fetch runtime's `Headers` reads it, from the value node kept (`value`)
 * and every raw line of the field (`lines`, in the order sent). Node keeps only the first line
 * of a field that may not repeat (Content-Type, Authorization), so the lines are joined with
 * ", " as `Headers` joins them, and two of a field are refused alike on both runtimes. Only a
 * value node left as the first line is joined: a value a host or middleware rewrote in
 * `req.headers` before Toolwright (a gateway that settles the field itself), or one node joined
 * its own way (Cookie, with "; "), is the one read.
 */
export function joinedLines(value: string, lines: readonly string[] | undefined): string {
  return lines !== undefined && lines.length > 1 && lines[0] === value ? lines.join(', ') : value;
}

/** The value of the field `name` (lower-case) of a node request, joined as `joinedLines` says; undefined when the request has none. */
export function joinedHeader(req: HeaderLines, name: string): string | undefined {
  const value = req.headers[name];
  if (typeof value !== 'string') return value === undefined ? undefined : value.join(', ');
  const raw = req.rawHeaders;
  // A request a host built by hand may carry no raw lines: its one value is all there is.
  if (raw === undefined) return value;
  let lines: string[] | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i].length !== name.length || raw[i].toLowerCase() !== name) continue;
    if (lines) lines.push(raw[i + 1]);
    else lines = [raw[i + 1]];
  }
  return joinedLines(value, lines);
}
