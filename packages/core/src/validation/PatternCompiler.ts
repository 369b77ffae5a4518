/** A compiled `pattern`. A `RegExp` is one. */
export interface PatternMatcher {
  /** Whether `value` holds a match anywhere (JSON Schema patterns are not anchored), as `RegExp.prototype.test` says. */
  test(value: string): boolean;
}

/**
 * Compiles the regular expressions of a JSON Schema, `pattern` and the names of
 * `patternProperties`, written in ECMA-262 syntax, Unicode mode, unanchored. The default is
 * JavaScript's own `RegExp`, a backtracking engine: a pattern such as `^(a+)+$` can take
 * exponential time on a crafted string, and nothing can interrupt it. For schemas written by a
 * third party (`fromOpenApi` of `@toolwright/openapi` gives one), give a compiler with a
 * linear-time engine. It throws for a pattern it cannot run; the build reports that pattern.
 */
export type PatternCompiler = (source: string) => PatternMatcher;

/** The default compiler: `new RegExp(source, 'u')`. */
export const nativePattern: PatternCompiler = (source) => new RegExp(source, 'u');
