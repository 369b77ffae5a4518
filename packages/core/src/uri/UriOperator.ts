/** How one RFC 6570 operator expands, and what its values may contain when matching. */
export interface UriOperator {
  /** The operator character ('' for a simple expression). */
  readonly char: string;
  /** What the expansion starts with ('' for none). */
  readonly first: string;
  /** What separates the values of several variables (and the items of an exploded one). */
  readonly sep: string;
  /** `;`, `?` and `&` expand to `name=value` pairs. */
  readonly named: boolean;
  /** What starts each pair of a named operator (a query's `?` or `&` either way). */
  readonly leads: string;
  /** Characters one value can never contain (values produced by expansion never contain the separators). */
  readonly valueStops: string;
}

const table: readonly UriOperator[] = [
  { char: '', first: '', sep: ',', named: false, leads: '', valueStops: '/?#,' },
  { char: '+', first: '', sep: ',', named: false, leads: '', valueStops: '?#,' },
  { char: '#', first: '#', sep: ',', named: false, leads: '', valueStops: ',' },
  { char: '.', first: '.', sep: '.', named: false, leads: '', valueStops: '/?#.' },
  { char: '/', first: '/', sep: '/', named: false, leads: '', valueStops: '/?#' },
  { char: ';', first: ';', sep: ';', named: true, leads: ';', valueStops: '/?#;' },
  { char: '?', first: '?', sep: '&', named: true, leads: '?&', valueStops: '&#' },
  { char: '&', first: '&', sep: '&', named: true, leads: '?&', valueStops: '&#' },
];

/** The operators by character ('' for a simple expression). */
export const URI_OPERATORS: ReadonlyMap<string, UriOperator> = new Map(table.map((op) => [op.char, op]));
