import { RegExpParser, type AST } from '@eslint-community/regexpp';

/**
 * An ECMAScript pattern as RE2 programs that decide the same strings: a string matches when
 * every one of `must` matches it and none of `mustNot` does. One program, unless the pattern
 * starts with `^` and lookaheads (`^(?=.*\d)(?!.*\s).{8,}$`): each lookahead then is a program
 * of its own, anchored at the start like the rest.
 */
export interface Re2Programs {
  readonly must: readonly string[];
  readonly mustNot: readonly string[];
}

/** Inclusive code point ranges, sorted and apart. */
type Ranges = readonly (readonly [number, number])[];

/** Why a pattern cannot be written for RE2: the construct, as a user would name it. */
export class NotRegular extends Error {}

const MAX_CODE_POINT = 0x10ffff;
/** RE2 refuses a counted repetition above this. */
const MAX_REPEAT = 1000;
const DIGIT: Ranges = [[0x30, 0x39]];
const WORD: Ranges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
/** `.` without the `s` flag: anything but a line terminator. */
const DOT = complement([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
]);
/** `\s`: ECMA-262's WhiteSpace (tab, VT, FF, U+FEFF and the Zs category) and LineTerminator. */
const SPACE: Ranges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const ESCAPES: Readonly<Record<'digit' | 'word' | 'space', Ranges>> = { digit: DIGIT, word: WORD, space: SPACE };

/**
 * Writes a JSON Schema pattern (ECMA-262, Unicode mode, a valid one) in RE2 syntax, keeping
 * which strings it matches exactly: RE2 reads `\s`, `.`, `\uXXXX` and `\p{Letter}` otherwise, so
 * nothing is passed through as written. Every character is a `\x{...}` escape and every class an
 * explicit list of ranges; Unicode properties are read off JavaScript's own engine (once each,
 * into `sets`), so they mean what they mean to `RegExp` on this runtime.
 * Throws `NotRegular` for what RE2 cannot express: lookarounds other than the leading ones,
 * backreferences, repetition counts above 1000, modifiers.
 */
export function re2Syntax(source: string, sets: Map<string, Ranges>): Re2Programs {
  let pattern: AST.Pattern;
  try {
    pattern = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(source, 0, source.length, { unicode: true });
  } catch (error) {
    throw new NotRegular(`syntax this reader does not know (${(error as Error).message})`);
  }
  const writer = new Writer(sets);
  const alternatives = pattern.alternatives;
  const elements = alternatives.length === 1 ? alternatives[0]!.elements : [];
  let lead = 0;
  if (elements[0]?.type === 'Assertion' && elements[0].kind === 'start') {
    lead = 1;
    while (elements[lead]?.type === 'Assertion' && (elements[lead] as AST.Assertion).kind === 'lookahead') lead++;
  }
  if (lead <= 1) return { must: [writer.alternatives(alternatives)], mustNot: [] };
  // `^(?=A)(?!B)C`: A, B and C all start at 0, and nothing they match is referred to again.
  const must: string[] = [];
  const mustNot: string[] = [];
  for (const look of elements.slice(1, lead) as AST.LookaheadAssertion[]) (look.negate ? mustNot : must).push(`^(?:${writer.alternatives(look.alternatives)})`);
  must.push(
    `^${elements
      .slice(lead)
      .map((e) => writer.element(e))
      .join('')}`,
  );
  return { must, mustNot };
}

class Writer {
  constructor(private readonly sets: Map<string, Ranges>) {}

  alternatives(alternatives: readonly AST.Alternative[]): string {
    return alternatives.map((a) => a.elements.map((e) => this.element(e)).join('')).join('|');
  }

  element(e: AST.Element): string {
    switch (e.type) {
      case 'Character':
        return hex(e.value);
      case 'CharacterClass':
        return this.set(e);
      case 'CharacterSet':
        return setSyntax(this.ranges(e));
      case 'Group':
        if (e.modifiers) throw new NotRegular(`a modifier group (${quote(e.raw)})`);
        return `(?:${this.alternatives(e.alternatives)})`;
      case 'CapturingGroup':
        return `(?:${this.alternatives(e.alternatives)})`;
      case 'Quantifier':
        return `(?:${this.element(e.element)})${quantifier(e)}`;
      case 'Backreference':
        throw new NotRegular(`a backreference (${quote(e.raw)})`);
      case 'Assertion':
        if (e.kind === 'start') return '^';
        if (e.kind === 'end') return '$';
        if (e.kind === 'word') return e.negate ? '\\B' : '\\b';
        throw new NotRegular(`a ${e.kind} (${quote(e.raw)})${e.kind === 'lookahead' ? ' other than right after a leading ^' : ''}`);
      default:
        throw new NotRegular(`${(e as AST.Node).raw}`);
    }
  }

  private set(e: AST.CharacterClass): string {
    const items: (readonly [number, number])[] = [];
    for (const item of e.elements) {
      if (item.type === 'Character') items.push([item.value, item.value]);
      else if (item.type === 'CharacterClassRange') items.push([item.min.value, item.max.value]);
      else if (item.type === 'CharacterSet') items.push(...this.ranges(item));
      else throw new NotRegular(`a class of strings (${item.raw})`);
    }
    const ranges = union(items);
    return setSyntax(e.negate ? complement(ranges) : ranges);
  }

  private ranges(e: AST.CharacterSet): Ranges {
    if (e.kind === 'any') return DOT;
    if (e.kind !== 'property') return e.negate ? complement(ESCAPES[e.kind]) : ESCAPES[e.kind];
    if (e.strings) throw new NotRegular(`a property of strings (${e.raw})`);
    // The code points JavaScript's engine puts in `\p{...}`, read once (their tables follow the Unicode version).
    let ranges = this.sets.get(e.raw);
    if (ranges === undefined) this.sets.set(e.raw, (ranges = codePointsOf(new RegExp(`^${e.raw}$`, 'u'))));
    return ranges;
  }
}

function quantifier({ min, max }: AST.Quantifier): string {
  if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) throw new NotRegular(`a repetition count above ${MAX_REPEAT} ({${min},${max === Infinity ? '' : max}})`);
  // Greedy or lazy decides which match is found, not whether there is one.
  if (max === Infinity) return min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
  if (min === 0 && max === 1) return '?';
  return min === max ? `{${min}}` : `{${min},${max}}`;
}

/** A construct's text for a message, cut short. */
function quote(raw: string): string {
  return raw.length > 30 ? `${raw.slice(0, 30)}…` : raw;
}

function hex(codePoint: number): string {
  return `\\x{${codePoint.toString(16)}}`;
}

function setSyntax(ranges: Ranges): string {
  if (ranges.length === 0) return `[^\\x{0}-\\x{${MAX_CODE_POINT.toString(16)}}]`;
  return `[${ranges.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('')}]`;
}

/** The ranges sorted, overlapping and adjacent ones joined. */
function union(ranges: readonly (readonly [number, number])[]): Ranges {
  const out: [number, number][] = [];
  for (const [lo, hi] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(ranges: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** The code points a one-character RegExp matches, as ranges (about 20-50 ms: every code point is tried). */
function codePointsOf(re: RegExp): Ranges {
  const out: [number, number][] = [];
  let start = -1;
  for (let c = 0; c <= MAX_CODE_POINT; c++) {
    const hit = re.test(String.fromCodePoint(c));
    if (hit && start < 0) start = c;
    else if (!hit && start >= 0) {
      out.push([start, c - 1]);
      start = -1;
    }
  }
  if (start >= 0) out.push([start, MAX_CODE_POINT]);
  return out;
}
