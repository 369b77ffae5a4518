import { matchExpression } from './matchExpression';
import { parseUriTemplate, type UriExpression } from './parseUriTemplate';

/** A compiled RFC 6570 URI template that recognizes the URIs it expands to. */
export interface UriTemplateMatcher {
  readonly template: string;
  /** Variable names in the order they appear. */
  readonly variables: readonly string[];
  /** The variables of a URI this template produces (exploded ones as arrays), or undefined if it does not match. */
  match(uri: string): Record<string, string | string[]> | undefined;
}

/**
 * Compiles a URI template (RFC 6570 levels 1-3 plus the explode modifier for the unnamed
 * operators) into a matcher, once. Throws a `UriTemplateError` saying what is wrong with the
 * template and how to fix it.
 *
 * Matching takes time linear in the URI's length and never goes back on a choice. The rule:
 * the template's prefix and suffix must start and end the URI; then, left to right, each
 * expression takes the longest run of characters it may contain (a simple `{x}` value no
 * `/ ? # ,`, a `{+x}` one no `? # ,`, see the Resources guide) that is followed by the literal
 * text after it and still leaves room for the literals after that. So in `{name}.{ext}`,
 * `a.b.c` gives `a.b` and `c`; in `{+path}/{file}`, `a/b/c` gives `a/b` and `c`; in
 * `{owner}/{+path}`, `o/a/b` gives `o` and `a/b`. Expressions side by side are refused at
 * compile time unless the first can never contain what the second starts with (`{id}{?q}`).
 */
export function compileUriTemplate(template: string): UriTemplateMatcher {
  const { prefix, runs, variables } = parseUriTemplate(template);
  const count = runs.length;
  const suffix = count > 0 ? runs[count - 1].after : '';

  function match(uri: string): Record<string, string | string[]> | undefined {
    if (count === 0) return uri === template ? {} : undefined;
    if (uri.length < prefix.length + suffix.length || !uri.startsWith(prefix) || !uri.endsWith(suffix)) return undefined;
    const begin = prefix.length;
    const end = uri.length - suffix.length;
    // The latest place each inner literal can start with the ones after it still fitting: found once, right to left.
    const latest: number[] = new Array(count - 1);
    let bound = end;
    for (let i = count - 2; i >= 0; i--) {
      const literal = runs[i].after;
      const at = bound - literal.length < begin ? -1 : literalAt(uri, literal, begin, bound - literal.length, runs[i + 1].expressions[0].op.first);
      if (at < begin) return undefined;
      latest[i] = at;
      bound = at;
    }
    const values: Record<string, string | string[]> = {};
    const ends: number[] = [];
    let pos = begin;
    try {
      for (let i = 0; i < count; i++) {
        const { expressions, after } = runs[i];
        const isLast = i === count - 1;
        const limit = isLast ? end : latest[i];
        // Each expression of the run takes every character it may contain (up to the limit); the next starts where it stops.
        let reach = pos;
        ends.length = 0;
        for (const expression of expressions) ends.push((reach = scanTo(uri, reach, limit, expression)));
        const stop = isLast ? (reach === end ? end : -1) : literalAt(uri, after, pos, reach, runs[i + 1].expressions[0].op.first);
        if (stop < pos) return undefined;
        let from = pos;
        for (let j = 0; j < expressions.length; j++) {
          const to = Math.min(ends[j], stop);
          if (!matchExpression(expressions[j], uri, from, to, values)) return undefined;
          from = to;
        }
        pos = stop + after.length;
      }
    } catch {
      return undefined; // malformed percent-encoding: not a URI this template produces
    }
    return values;
  }

  return Object.freeze({ template, variables: Object.freeze([...variables]), match });
}

/**
 * The last place in `[from, to]` where `literal` starts and is followed by `first` (the next
 * expression's first character, when it has one); the last place it starts at all when it is
 * never so followed; -1 when it is not there. Native searches: linear in the URI's length.
 */
function literalAt(uri: string, literal: string, from: number, to: number, first: string): number {
  const last = uri.lastIndexOf(literal, to);
  if (first === '' || last < from) return last;
  const followed = uri.lastIndexOf(literal + first, to);
  return followed >= from ? followed : last;
}

/** Where the first stop character of `expression` in `uri[from, limit)` is, or `limit` when there is none. */
function scanTo(uri: string, from: number, limit: number, expression: UriExpression): number {
  const run = expression.run;
  run.lastIndex = from;
  run.test(uri);
  return Math.min(run.lastIndex, limit);
}

/** Whether a string is a URI template rather than a plain URI. */
export function isUriTemplate(uri: string): boolean {
  return /[{}]/.test(uri);
}
