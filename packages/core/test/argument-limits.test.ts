import { compileSchemaValidator } from '@toolwright/core';
import { argumentDepthIssue, MAX_ARGUMENT_DEPTH } from '../src/validation/argumentDepth';
import { issueLines, MAX_COLLECTED_ISSUES, type ValidationIssue } from '../src/validation/ValidationIssue';

const arrays = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};
const objects = (depth: number, key = 'a'): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`) as unknown;
  return value;
};
const deepObjects = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('argumentDepthIssue', () => {
  test(`accepts ${MAX_ARGUMENT_DEPTH} levels below the arguments object and refuses one more, naming the path`, () => {
    expect(argumentDepthIssue({ data: arrays(MAX_ARGUMENT_DEPTH) })).toBeUndefined();
    expect(argumentDepthIssue({ data: arrays(MAX_ARGUMENT_DEPTH + 1) })).toEqual({
      path: 'data[0][0][0][0]…[0][0][0][0][0]',
      message: `nests deeper than ${MAX_ARGUMENT_DEPTH} levels of objects and arrays: flatten it, or send it as text.`,
    });
    expect(argumentDepthIssue({ a: 1, b: 'x', c: [1, { d: 2 }] })).toBeUndefined();
  });

  test('100,000 levels of objects or arrays are refused without exhausting the stack', () => {
    expect(argumentDepthIssue({ data: arrays(100_000) })?.path).toBe('data[0][0][0][0]…[0][0][0][0][0]');
    expect(argumentDepthIssue(deepObjects(100_000))?.path).toBe('a.a.a.a.a….a.a.a.a.a');
  });

  test('own __proto__, constructor and prototype keys are walked like any other, and nothing is polluted', () => {
    const issue = argumentDepthIssue(objects(MAX_ARGUMENT_DEPTH + 5, '__proto__'));
    expect(issue?.path).toBe('__proto__.__proto__.__proto__.__proto__.__proto__….__proto__.__proto__.__proto__.__proto__.__proto__');
    expect(argumentDepthIssue({ constructor: { prototype: objects(3, '__proto__') } })).toBeUndefined();
    expect(({} as Record<string, unknown>).a).toBeUndefined();
  });

  test('keys that are no identifiers are quoted in the path', () => {
    expect(argumentDepthIssue({ 'a b': arrays(MAX_ARGUMENT_DEPTH + 1) })?.path).toBe('["a b"][0][0][0][0]…[0][0][0][0][0]');
  });
});

describe('issue lists have a cap', () => {
  test('the validator stops walking after MAX_COLLECTED_ISSUES issues', () => {
    const check = compileSchemaValidator({ type: 'object', properties: { list: { type: 'array', items: { type: 'number' } } } });
    const outcome = check({ list: new Array<string>(1_000_000).fill('x') });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.issues.length).toBe(MAX_COLLECTED_ISSUES);
    const strict = compileSchemaValidator({ type: 'object', additionalProperties: false });
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    const refused = strict(wide);
    expect(!refused.ok && refused.issues.length).toBe(MAX_COLLECTED_ISSUES);
  });

  test('a refusal inside a union branch still counts as a failed branch', () => {
    const check = compileSchemaValidator({
      anyOf: [
        { type: 'array', items: { type: 'number' } },
        { type: 'array', items: { type: 'string' } },
      ],
    });
    expect(check(new Array<string>(500).fill('x')).ok).toBe(true);
    expect(check([...new Array<number>(500).fill(1), ...new Array<string>(500).fill('x')]).ok).toBe(false);
  });

  test('a message lists the first 20 issues and counts or notes the rest', () => {
    const issues = (n: number): ValidationIssue[] => Array.from({ length: n }, (_, i) => ({ path: `list[${i}]`, message: 'must be a number' }));
    expect(issueLines(issues(2), '(arguments)')).toBe('- list[0]: must be a number\n- list[1]: must be a number');
    expect(issueLines(issues(25), '(arguments)').split('\n')).toHaveLength(21);
    expect(issueLines(issues(25), '(arguments)')).toMatch(/- … and 5 more issues$/);
    expect(issueLines(issues(MAX_COLLECTED_ISSUES), '(arguments)')).toMatch(/- … and more \(the check stopped after 100 issues\)$/);
  });
});

describe('string lengths count code points, stopping past the bound', () => {
  test('surrogate pairs are one character each', () => {
    const check = compileSchemaValidator({ type: 'string', minLength: 2, maxLength: 3 });
    expect(check('😀😀😀').ok).toBe(true);
    expect(check('😀😀😀😀').ok).toBe(false);
    expect(check('😀').ok).toBe(false);
    expect(check('\ud800\ud800\ud800').ok).toBe(true);
    expect(check('x'.repeat(5_000_000)).ok).toBe(false);
  });
});
