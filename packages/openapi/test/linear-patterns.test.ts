import { LinearPatterns } from '../src/LinearPatterns';
import { fuzzRuns } from '../../core/test/fixtures/fuzzRuns';

/**
 * The description's patterns run on RE2 (re2js), written in RE2 syntax by `re2Syntax`: they must
 * match exactly the strings JavaScript's RegExp (Unicode mode) matches, and in linear time.
 * A seeded generator of patterns and strings checks the first against RegExp itself.
 */

const patterns = () => new LinearPatterns(undefined);
/** One instance for the comparisons: each Unicode property it meets is read off RegExp once. */
const shared = patterns().compile;
const agree = (source: string, inputs: readonly string[], compile = shared) => {
  const linear = compile(source);
  const native = new RegExp(source, 'u');
  return inputs.filter((input) => linear.test(input) !== native.test(input)).map((input) => ({ source, input }));
};

/** The strings every hand-written case is tried on. */
const STRINGS = [
  '',
  'a',
  'A',
  'ab',
  'abc',
  'a\n',
  '\na',
  ' ',
  '\t',
  '\v',
  '\u00a0',
  '\ufeff',
  '\u2028',
  '\r',
  '\n',
  '1',
  '٣',
  '_',
  '-',
  'é',
  'É',
  '😀',
  '\uD83D',
  '\uDE00',
  'α',
  '中',
  'a b',
  'foo bar',
  'x.y',
  '/',
  '\\',
  '\0',
  'aaaa!',
  'ab12',
  'A1b2C3d4!',
];

it('matches what RegExp matches: escapes, classes, dot, anchors, Unicode', () => {
  const sources = [
    '',
    'a',
    '^a$',
    '^\\s$',
    '^\\S$',
    '^[\\s\\d]+$',
    '^[^\\s]$',
    '^.$',
    '^.+$',
    '^\\d+$',
    '^\\D$',
    '^\\w+$',
    '^\\W$',
    '\\bfoo\\b',
    '\\Bo',
    '^\\u0041$',
    '^\\u{1F600}$',
    '^\\uD83D\\uDE00$',
    '^\\uD83D$',
    '^[\\uD800-\\uDBFF]$',
    '^[\\uDC00-\\uDFFF]$',
    '^\\x41$',
    '^\\cJ$',
    '^\\0$',
    '^\\/$',
    '^[\\-a]$',
    '^[\\]\\[\\^\\\\]$',
    '^[\\b]$',
    '^\\p{L}+$',
    '^\\P{L}$',
    '^[\\p{Lu}\\d]+$',
    '^[^\\p{L}]$',
    '^\\p{sc=Greek}$',
    '^\\p{ASCII}+$',
    '^(?:a|b)+$',
    '^(a|)$',
    '(?<name>a)b',
    '^a{2,3}$',
    '^a{0,1000}$',
    '^(?:ab){2,}$',
    'a*?b',
    '^$',
    '$',
    '^',
    '[^]',
    '[]',
    '^[^]$',
    '^sha256:[a-f0-9]{64}$',
    '^[A-Za-z0-9.\\-_]+$',
    '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$',
    '^ssh-(rsa|dss|ed25519) |^ecdsa-sha2-nistp(256|384|521) ',
    '[a-z]+_token_[0-9]+',
    '^\\d+\\.\\d+\\.\\d+$',
    '^(?=.*[A-Z])(?=.*\\d)(?!.*\\s).{8,}$',
    '^(?!.*\\.\\.)[a-z.]+$',
    '^(?=a)',
  ];
  const mismatches = sources.flatMap((source) => agree(source, STRINGS));
  expect(mismatches).toEqual([]);
});

it('reads \\s and \\S as RegExp does, on every code point of the BMP', () => {
  const [space, other] = [shared('^\\s$'), shared('^\\S$')];
  const native = /^\s$/u;
  const wrong: number[] = [];
  for (let c = 0; c <= 0xffff; c++) {
    const char = String.fromCharCode(c);
    if (space.test(char) !== native.test(char) || other.test(char) === native.test(char)) wrong.push(c);
  }
  expect(wrong).toEqual([]);
});

it('agrees with RegExp on thousands of generated patterns and strings', () => {
  let seed = 0x5eed;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
  const ATOMS = ['a', 'b', '\\.', '.', '\\d', '\\D', '\\s', '\\S', '\\w', '\\W', '\\u00e9', '\\u{1F600}', '\\p{L}', '\\P{L}', '\\n', '-', ' ', '1', '\\uD83D'];
  const CLASS_ITEMS = ['a', 'b-d', '\\d', '\\s', '\\W', '\\p{Lu}', '\\-', '0-9', '\\u00e0-\\u00ff', '\\uD800-\\uDFFF', ' ', '.', '\\n'];
  const QUANTIFIERS = ['', '', '', '*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?'];
  const term = (depth: number): string => {
    const r = random(10);
    let t: string;
    if (depth > 0 && r < 2) t = `(${alternatives(depth - 1)})`;
    else if (depth > 0 && r < 3) t = `(?:${alternatives(depth - 1)})`;
    else if (r < 5) t = `[${random(3) === 0 ? '^' : ''}${Array.from({ length: 1 + random(3) }, () => pick(CLASS_ITEMS)).join('')}]`;
    else if (r < 6) return pick(['^', '$', '\\b', '\\B']);
    else t = pick(ATOMS);
    return t + pick(QUANTIFIERS);
  };
  const alternatives = (depth: number): string => Array.from({ length: 1 + (random(4) === 0 ? 1 : 0) }, () => Array.from({ length: 1 + random(4) }, () => term(depth)).join('')).join('|');
  const ALPHABET = ['a', 'b', 'c', 'A', '.', '1', '9', ' ', '\n', '\r', '\t', '\u2028', '\ufeff', '\u00a0', '-', 'é', 'É', '😀', '\uD83D', '\uDE00', '_', 'Σ', 'ß'];
  const text = () => Array.from({ length: random(7) }, () => pick(ALPHABET)).join('');
  const mismatches = [];
  for (let i = 0, patterns = fuzzRuns(3000); i < patterns; i++) {
    let source = alternatives(2);
    // Lookaheads right after a leading ^ are run as patterns of their own.
    if (random(4) === 0) source = `^(?=${alternatives(1)})${random(2) ? `(?!${alternatives(1)})` : ''}(?:${source})`;
    mismatches.push(...agree(source, Array.from({ length: 30 }, text)));
  }
  expect(mismatches.slice(0, 10)).toEqual([]);
});

/** The CPU time this process has used since `since` (from `process.cpuUsage()`), in ms: unlike the time on the clock, other work on a loaded machine does not add to it. */
const cpuMsSince = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

it('runs catastrophic and quadratic patterns in linear time', () => {
  const { compile } = patterns();
  const hostile = `${'a'.repeat(100_000)}!`;
  const started = process.cpuUsage();
  for (const source of ['^(a+)+$', '^(\\w+\\s?)*$', '(a|aa)+$', '^(a|a?)+$', '(\\w|\\d)+\\s$', '[a-z]+_token_[0-9]+', '^(?=(a+)+$)b']) expect(compile(source).test(hostile)).toBe(false);
  // RegExp takes seconds of CPU for the first three at 30 characters, and about 9 s for '[a-z]+_token_[0-9]+' here.
  expect(cpuMsSince(started)).toBeLessThan(2_000);
});

it('refuses what RE2 cannot run, naming where and the option; allowBacktrackingPattern lets RegExp run it', () => {
  const strict = patterns();
  for (const [source, construct] of [
    ['(a)\\1', 'backreference'],
    ['a(?=b)', /lookahead \(\(\?=b\)\) other than right after a leading \^/],
    ['(?<=a)b', 'lookbehind'],
    ['^a{1001}$', 'repetition count above 1000'],
    ['^(?:(?:a{100}){100}){100}$', 'construct RE2 refuses'],
    ['^(?:a?){1000}a{1000}$', 'RE2 instructions (at most 2500 are run)'],
  ] as const) {
    expect(() => strict.check(source, "GET /pets parameter 'q'/pattern")).toThrow(construct);
    expect(() => strict.check(source, "GET /pets parameter 'q'/pattern")).toThrow(/at GET \/pets parameter 'q'\/pattern .*allowBacktrackingPattern/);
    expect(() => strict.compile(source)).toThrow(construct);
  }
  const seen: [string, string][] = [];
  const lenient = new LinearPatterns((pattern, where) => (seen.push([pattern, where]), pattern === '(a)\\1'));
  lenient.check('(a)\\1', '#/components/schemas/Pair/pattern');
  expect(seen).toEqual([['(a)\\1', '#/components/schemas/Pair/pattern']]);
  expect(lenient.compile('(a)\\1')).toBeInstanceOf(RegExp);
  expect(lenient.compile('(a)\\1').test('xaa')).toBe(true);
  expect(() => lenient.check('a(?=b)', 'x')).toThrow('lookahead');
  // Not a RegExp at all: left to the schema profile check, which names it as before.
  expect(() => lenient.check('(', 'x')).not.toThrow();
});
