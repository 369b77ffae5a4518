import { URI_OPERATORS, type UriOperator } from './UriOperator';
import { UriTemplateError } from './UriTemplateError';

export interface UriVariable {
  readonly name: string;
  /** `{x*}`: the value is a list. */
  readonly explode: boolean;
}

/** One `{...}` of a template. */
export interface UriExpression {
  /** As written, for messages: `{/a,b}`. */
  readonly source: string;
  readonly op: UriOperator;
  readonly variables: readonly UriVariable[];
  /** Characters the whole expansion never contains (by char code; all are ASCII): where the scan for its end stops. */
  readonly stops: Uint8Array;
  /** A sticky pattern for the longest run of characters the expansion may contain (set `lastIndex`, then `test`). */
  readonly run: RegExp;
}

/** Expressions with nothing between them, and the literal text that follows them. */
export interface UriRun {
  readonly expressions: readonly UriExpression[];
  /** The text after the run: never empty, except after the last run (there it is the template's suffix). */
  readonly after: string;
}

/** A template as `prefix run literal run literal ... run suffix`. */
export interface ParsedUriTemplate {
  readonly prefix: string;
  readonly runs: readonly UriRun[];
  /** Variable names in the order they appear. */
  readonly variables: readonly string[];
}

const VARNAME = /^[A-Za-z0-9_.%]+$/;

/**
 * Splits a URI template (RFC 6570 levels 1-3, the explode modifier for the unnamed
 * operators) into literals and expressions. Throws a `UriTemplateError` (what and how to fix)
 * for what it cannot match without guessing: two expressions side by side where the first
 * could swallow the start of the second (`{a}{b}`), and a variable after an exploded one.
 */
export function parseUriTemplate(template: string): ParsedUriTemplate {
  const variables: string[] = [];
  const runs: { expressions: UriExpression[]; after: string }[] = [];
  let prefix: string | undefined;
  let last = 0;
  for (const m of template.matchAll(/\{([^{}]*)\}/g)) {
    const literal = template.slice(last, m.index);
    if (/[{}]/.test(literal)) throw new UriTemplateError('it has an unbalanced brace', 'close every `{` with a `}` and use no braces outside expressions.');
    last = m.index + m[0].length;
    const expression = parseExpression(m[0], m[1], variables);
    if (prefix === undefined) {
      prefix = literal;
      runs.push({ expressions: [expression], after: '' });
    } else if (literal === '') {
      const run = runs[runs.length - 1];
      for (const before of run.expressions) refuseAdjacent(before, expression);
      run.expressions.push(expression);
    } else {
      runs[runs.length - 1].after = literal;
      runs.push({ expressions: [expression], after: '' });
    }
  }
  const suffix = template.slice(last);
  if (/[{}]/.test(suffix)) throw new UriTemplateError('it has an unbalanced brace', 'close every `{` with a `}` and use no braces outside expressions.');
  if (prefix === undefined) return { prefix: template, runs: [], variables };
  runs[runs.length - 1].after = suffix;
  return { prefix, runs, variables };
}

function parseExpression(source: string, body: string, seen: string[]): UriExpression {
  const opChar = /^[+#./;?&]/.test(body) ? body[0] : '';
  const op = URI_OPERATORS.get(opChar)!;
  const variables: UriVariable[] = [];
  for (const spec of body.slice(opChar.length).split(',')) {
    const explode = spec.endsWith('*');
    const name = spec.replace(/\*$/, '').replace(/:\d+$/, '');
    if (!VARNAME.test(name))
      throw new UriTemplateError(`'${source}' has an invalid variable name '${spec}'`, 'name variables with letters, digits, `_`, `.` or percent-escapes, as in `{id}` or `{/path*}`.');
    // Matched values go in a plain object, where this name would set its prototype.
    if (name === '__proto__') throw new UriTemplateError(`'${source}' has the variable name '__proto__', which cannot hold a value`, "rename it, e.g. '{proto}'.");
    if (seen.includes(name)) throw new UriTemplateError(`the variable '${name}' appears twice`, 'give each variable its own name.');
    if (explode && op.named) throw new UriTemplateError(`'${source}': the explode modifier is supported only for {x*}, {+x*}, {#x*}, {/x*} and {.x*}`, `drop the '*' from '${spec}'.`);
    if (variables.at(-1)?.explode) {
      throw new UriTemplateError(
        `'${source}': '${spec}' follows the exploded variable '${variables.at(-1)!.name}', which takes every item to the end of the expression`,
        'put the exploded variable last in its expression, or give it an expression of its own.',
      );
    }
    seen.push(name);
    variables.push({ name, explode });
  }
  const several = variables.length > 1 || variables[0].explode;
  const stops = new Uint8Array(128);
  for (const c of op.valueStops) {
    // The expansion's own punctuation is part of it: its first character, its separators, a query's leads.
    if (c === op.first || op.leads.includes(c) || (several && c === op.sep)) continue;
    stops[c.charCodeAt(0)] = 1;
  }
  const stopChars = [...op.valueStops].filter((c) => stops[c.charCodeAt(0)] === 1);
  // A character class of the stop characters only: it cannot backtrack, and V8 runs it natively.
  const run = new RegExp(`[^${stopChars.map((c) => `\\${c}`).join('')}]*`, 'y');
  return { source, op, variables, stops, run };
}

/**
 * Two expressions side by side are matched by letting the first take every character it may
 * contain: the second must start with one the first can never contain (`{id}{?fields}`,
 * `{name}{.ext}` is refused: a name may contain dots).
 */
function refuseAdjacent(before: UriExpression, next: UriExpression): void {
  const first = next.op.first;
  if (first !== '' && before.stops[first.charCodeAt(0)] === 1) return;
  throw new UriTemplateError(
    `'${before.source}' and '${next.source}' follow each other with nothing between them, and a value of the first may contain what the second starts with, so a URI cannot tell where one ends`,
    `put literal text between them (e.g. '${before.source}-${next.source}' or '${before.source}/${next.source}'), or merge them into one expression such as '{${[...before.variables, ...next.variables].map((v) => v.name).join(',')}}'.`,
  );
}
