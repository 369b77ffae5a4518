import type { UriExpression } from './parseUriTemplate';

/** The most items an exploded variable (`{/path*}`) takes: a URI with more is not one of the template's. */
export const MAX_EXPLODED_ITEMS = 1024;

/**
 * Reads the values of one expression from `uri[start, end)` (text holding none of the
 * expression's stop characters) into `out`: false when that text is not an expansion of it.
 * Values produced by expansion never contain the separators, so the text splits one way only.
 * Throws `URIError` for a malformed percent-escape.
 */
export function matchExpression(expression: UriExpression, uri: string, start: number, end: number, out: Record<string, string | string[]>): boolean {
  const { op, variables } = expression;
  if (op.named) return matchNamed(expression, uri, start, end, out);
  let pos = start;
  if (op.first !== '') {
    if (pos === end) return true; // `{/x}`, `{.x}`, `{#x}` with no value expand to nothing
    if (uri[pos] !== op.first) return false;
    pos++;
  }
  for (let i = 0; i < variables.length; i++) {
    const { name, explode } = variables[i];
    if (i > 0) {
      // A later variable may be left out, unless it is exploded (the parser keeps that one last).
      if (pos === end && !explode) break;
      if (uri[pos] !== op.sep) return false;
      pos++;
    }
    if (explode) {
      const items = itemsOf(uri, pos, end, op.sep);
      if (!items) return false;
      out[name] = items;
      return true;
    }
    let stop = uri.indexOf(op.sep, pos);
    if (stop === -1 || stop > end) stop = end;
    if (stop === pos) return false; // an empty value
    out[name] = decoded(uri.slice(pos, stop));
    pos = stop;
  }
  return pos === end;
}

/** `;x=1;y`, `?x=1&y=2`: each variable optional, in the template's order; one without `=` has no value. */
function matchNamed({ op, variables }: UriExpression, uri: string, start: number, end: number, out: Record<string, string | string[]>): boolean {
  let pos = start;
  for (const { name } of variables) {
    if (pos === end) break;
    const valueAt = pos + 1 + name.length;
    if (valueAt > end || !op.leads.includes(uri[pos]) || !uri.startsWith(name, pos + 1)) continue;
    if (valueAt === end || op.leads.includes(uri[valueAt])) {
      pos = valueAt;
      continue;
    }
    if (uri[valueAt] !== '=') continue; // a longer name that starts with this one
    let stop = uri.indexOf(op.sep, valueAt + 1);
    if (stop === -1 || stop > end) stop = end;
    out[name] = decoded(uri.slice(valueAt + 1, stop));
    pos = stop;
  }
  return pos === end;
}

/** The items of an exploded value in `uri[start, end)` (a leading empty one dropped), or undefined past `MAX_EXPLODED_ITEMS`. */
function itemsOf(uri: string, start: number, end: number, sep: string): string[] | undefined {
  const items: string[] = [];
  for (let pos = start; ;) {
    let stop = uri.indexOf(sep, pos);
    if (stop === -1 || stop > end) stop = end;
    if (pos > start || stop > pos) {
      if (items.length === MAX_EXPLODED_ITEMS) return undefined;
      items.push(decoded(uri.slice(pos, stop)));
    }
    if (stop === end) return items;
    pos = stop + 1;
  }
}

/** A value with its percent-escapes decoded (throws `URIError` for a malformed one). */
function decoded(value: string): string {
  return value.includes('%') ? decodeURIComponent(value) : value;
}
