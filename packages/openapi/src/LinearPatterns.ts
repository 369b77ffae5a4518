import { ConfigError, type PatternCompiler, type PatternMatcher } from '@toolwright/core';
import { RE2JS, RE2JSException } from 're2js';
import { NotRegular, re2Syntax } from './re2Syntax';

/**
 * The largest RE2 program run, in instructions (`^[a-z0-9]{1,1000}$` takes about 2,000). RE2's
 * time is linear in the string, times the program's size when its DFA gives up: this keeps that
 * factor bounded against a description that chains counted repetitions (`a{1000}a{1000}...`).
 */
export const MAX_PATTERN_INSTRUCTIONS = 2500;

/**
 * The patterns of one description (`pattern`, `patternProperties` names), run on RE2 (re2js):
 * linear in the length of the string, so no argument can stall the server, as `^(a+)+$` on
 * JavaScript's backtracking `RegExp` can. Each pattern is written in RE2 syntax so that it
 * matches the same strings as in JavaScript (`re2Syntax`) and compiled once. The few that RE2
 * cannot run (lookarounds, backreferences, counts above 1000, programs above
 * MAX_PATTERN_INSTRUCTIONS) are refused at load, unless `allowBacktrackingPattern` lets
 * `RegExp` run them.
 */
export class LinearPatterns {
  /** Per source: its matcher, or why RE2 cannot run it. */
  private readonly compiled = new Map<string, PatternMatcher | string>();
  /** Sources `allowBacktrackingPattern` gave to `RegExp`. */
  private readonly native = new Set<string>();
  /** Unicode property sets (`\p{L}`), read off `RegExp` once each. */
  private readonly sets = new Map<string, readonly (readonly [number, number])[]>();

  constructor(private readonly allowBacktracking: ((pattern: string, where: string) => boolean) | undefined) {}

  /**
   * Refuses, at load, a pattern of the description that RE2 cannot run and the app did not allow
   * on `RegExp`. `where` says where it is (`GET /pets parameter 'q'/pattern`).
   */
  check(source: string, where: string): void {
    if (!isRegExp(source)) return; // the schema profile check reports it, as for any schema
    const outcome = this.attempt(source);
    if (typeof outcome !== 'string' || this.native.has(source)) return;
    if (this.allowBacktracking?.(source, where) === true) {
      this.native.add(source);
      return;
    }
    throw new ConfigError(
      `Toolwright: the pattern ${excerpt(source)} at ${where} uses ${outcome}, which a linear-time regular expression engine cannot run, and on JavaScript's backtracking RegExp one crafted argument could stall the server. Rewrite the pattern in the description, leave the operation out with \`include\`, or, if you know the pattern cannot backtrack badly, allow it with \`allowBacktrackingPattern: (pattern) => pattern === ${excerpt(source)}\`.`,
    );
  }

  /** The compiler the tools' validators use (`@Tool({ compilePattern })`). */
  readonly compile: PatternCompiler = (source) => {
    const outcome = this.attempt(source);
    if (typeof outcome !== 'string') return outcome;
    if (this.native.has(source)) return new RegExp(source, 'u');
    throw new Error(`it uses ${outcome}, which a linear-time regular expression engine cannot run`);
  };

  private attempt(source: string): PatternMatcher | string {
    const known = this.compiled.get(source);
    if (known !== undefined) return known;
    let outcome: PatternMatcher | string;
    try {
      const { must, mustNot } = re2Syntax(source, this.sets);
      const all = must.map((p) => RE2JS.compile(p));
      const none = mustNot.map((p) => RE2JS.compile(p));
      const size = [...all, ...none].reduce((sum, re) => sum + re.re2().numberOfInstructions(), 0);
      if (size > MAX_PATTERN_INSTRUCTIONS) outcome = `counted repetitions that add up to ${size} RE2 instructions (at most ${MAX_PATTERN_INSTRUCTIONS} are run)`;
      else outcome = all.length === 1 && none.length === 0 ? all[0]! : { test: (value) => all.every((re) => re.test(value)) && !none.some((re) => re.test(value)) };
    } catch (error) {
      if (error instanceof NotRegular) outcome = error.message;
      else if (error instanceof RE2JSException) outcome = `a construct RE2 refuses (${error.message})`;
      else throw error;
    }
    this.compiled.set(source, outcome);
    return outcome;
  }
}

function isRegExp(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

function excerpt(source: string): string {
  const json = JSON.stringify(source);
  return json.length > 200 ? `${json.slice(0, 200)}…` : json;
}
