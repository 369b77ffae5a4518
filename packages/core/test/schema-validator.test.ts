import { compileSchemaValidator, type JsonSchema } from '@toolwright/core';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 5 },
    age: { type: 'integer', minimum: 0 },
    ratio: { type: 'number', exclusiveMaximum: 1 },
    ok: { type: 'boolean' },
    kind: { enum: ['a', 'b'] },
    email: { type: 'string', format: 'email' },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2, uniqueItems: true },
    nested: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'], additionalProperties: false },
    maybe: { type: ['string', 'null'] },
  },
  required: ['name'],
  additionalProperties: false,
};

describe('compileSchemaValidator', () => {
  const validate = compileSchemaValidator(schema);

  it('accepts a valid value and returns it unchanged', () => {
    const value = { name: 'Ann', age: 3, ratio: 0.5, ok: true, kind: 'a', email: 'a@b.co', tags: ['x'], nested: { x: 1 }, maybe: null };
    const outcome = validate(value);
    expect(outcome).toEqual({ ok: true, value });
    expect(outcome.ok && outcome.value).toBe(value);
  });

  it('reports one issue per offending field, with its path', () => {
    const outcome = validate({ age: 1.5, ratio: 1, ok: 'yes', kind: 'c', email: 'nope', tags: ['x', 'x', 'y'], nested: { y: 1 }, extra: 1 });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.issues).toEqual([
      { path: 'name', message: 'is required' },
      { path: 'age', message: 'must be an integer (got number 1.5)' },
      { path: 'ratio', message: 'must be less than 1' },
      { path: 'ok', message: 'must be a boolean (got string "yes")' },
      { path: 'kind', message: 'must be one of: "a", "b" (got "c")' },
      { path: 'email', message: 'must be an email address, such as ada@example.com (got "nope")' },
      { path: 'tags', message: 'must have at most 2 items' },
      { path: 'tags', message: 'must not contain duplicate items' },
      { path: 'nested.x', message: 'is required' },
      { path: 'nested.y', message: 'is not allowed (unknown property)' },
      { path: 'extra', message: 'is not allowed (unknown property)' },
    ]);
  });

  it('does not coerce by default, and coerces numbers and booleans when asked', () => {
    expect(validate({ name: 'A', age: '5' }).ok).toBe(false);
    const coercing = compileSchemaValidator(schema, { coerce: true });
    expect(coercing({ name: 'A', age: '5', ok: 'false' })).toEqual({ ok: true, value: { name: 'A', age: 5, ok: false } });
    expect(coercing({ name: 'A', age: 'five' }).ok).toBe(false);
  });

  it('with coerce, says why an integer string past 2^53 - 1 is refused: it would round', () => {
    const integer = compileSchemaValidator({ type: 'object', properties: { id: { type: 'integer' } } }, { coerce: true });
    for (const spelling of ['9007199254740992', '-9007199254740993', '123456789012345678901234567890'])
      expect(integer({ id: spelling })).toEqual({
        ok: false,
        issues: [
          {
            path: 'id',
            message: `must be an integer between -9007199254740991 and 9007199254740991 to be converted exactly (got string ${JSON.stringify(spelling.length > 40 ? `${spelling.slice(0, 40)}…` : spelling)})`,
          },
        ],
      });
    expect(integer({ id: '9007199254740991' })).toEqual({ ok: true, value: { id: 9007199254740991 } });
    expect(integer({ id: '1e3' })).toEqual({ ok: false, issues: [{ path: 'id', message: 'must be an integer (got string "1e3")' }] });
  });

  it('coerces only the canonical spelling of a number: one string per value', () => {
    const integer = compileSchemaValidator({ type: 'integer' }, { coerce: true });
    for (const spelling of ['0x1', '1e0', '+1', '01', '1.0', '0b1', ' 1', '1 ', '-0', '', '9007199254740993']) expect([spelling, integer(spelling).ok]).toEqual([spelling, false]);
    for (const [spelling, value] of [
      ['1', 1],
      ['0', 0],
      ['-12', -12],
    ] as const)
      expect(integer(spelling)).toEqual({ ok: true, value });
    const number = compileSchemaValidator({ type: 'number' }, { coerce: true });
    for (const spelling of ['0x1', '+1.5', '.5', '1.', 'Infinity', 'NaN', ' 2']) expect([spelling, number(spelling).ok]).toEqual([spelling, false]);
    for (const [spelling, value] of [
      ['1.5', 1.5],
      ['-0.25', -0.25],
      ['2e3', 2000],
    ] as const)
      expect(number(spelling)).toEqual({ ok: true, value });
    const flag = compileSchemaValidator({ type: 'boolean' }, { coerce: true });
    expect(flag(' true').ok).toBe(false);
  });

  it('follows $ref into root $defs, recursively', () => {
    const tree: JsonSchema = {
      $ref: '#/$defs/Node',
      $defs: { Node: { type: 'object', properties: { v: { type: 'number' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['v'] } },
    };
    const check = compileSchemaValidator(tree);
    expect(check({ v: 1, children: [{ v: 2, children: [] }] }).ok).toBe(true);
    expect(check({ v: 1, children: [{ children: [] }] })).toEqual({ ok: false, issues: [{ path: 'children[0].v', message: 'is required' }] });
  });

  it('counts string length in code points', () => {
    expect(validate({ name: '😀😀😀😀😀' }).ok).toBe(true);
  });

  it('checks anyOf (nullable DTOs)', () => {
    const check = compileSchemaValidator({ anyOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'null' }] });
    expect(check(null).ok).toBe(true);
    expect(check({ a: 'x' }).ok).toBe(true);
    expect(check(5).ok).toBe(false);
  });
});

describe('multipleOf', () => {
  const ok = (value: number, multipleOf: number) => compileSchemaValidator({ type: 'number', multipleOf })(value).ok;

  it('accepts decimal steps that binary floating point cannot represent exactly', () => {
    expect([ok(0.3, 0.1), ok(1.1, 0.01), ok(0.07, 0.01), ok(-2.5, 0.5), ok(10, 5)]).toEqual([true, true, true, true, true]);
  });

  it('refuses a large value whose quotient has a fraction (regression: -32692901916.77293 passed as a multiple of 5)', () => {
    expect([ok(-32692901916.77293, 5), ok(1e12 + 0.5, 1), ok(8.4e-323, 0.5), ok(0.35, 0.1)]).toEqual([false, false, false, false]);
  });

  it('judges an integer past 2^53 by its quotient, as JSON Schema validators do (regression: -135877247725664220 refused as a multiple of 5)', () => {
    expect([ok(-135877247725664220, 5), ok(9007199254740991, 3), ok(9007199254740990, 3)]).toEqual([true, false, true]);
  });
});

describe('a union told apart by a const tag', () => {
  const circle: JsonSchema = { type: 'object', properties: { kind: { const: 'circle' }, r: { type: 'number' } }, required: ['kind', 'r'], additionalProperties: false };
  const square: JsonSchema = { type: 'object', properties: { kind: { const: 'square' }, side: { type: 'number' } }, required: ['kind', 'side'], additionalProperties: false };

  it('names the fields of the branch the tag picks when a branch is a $ref (a recursive class), or a chain of them', () => {
    const check = compileSchemaValidator({ oneOf: [{ $ref: '#/$defs/Circle' }, { $ref: '#/$defs/Shape' }], $defs: { Circle: circle, Shape: { $ref: '#/$defs/Square' }, Square: square } });
    expect(check({ kind: 'circle', r: 'x' })).toEqual({ ok: false, issues: [{ path: 'r', message: 'must be a number (got string "x")' }] });
    expect(check({ kind: 'square', r: 1 })).toEqual({
      ok: false,
      issues: [
        { path: 'side', message: 'is required' },
        { path: 'r', message: 'is not allowed (unknown property)' },
      ],
    });
    expect(check({ kind: 'hexagon' })).toEqual({ ok: false, issues: [{ path: 'kind', message: 'must be one of: "circle", "square" (got "hexagon")' }] });
    expect(check({ kind: 'square', side: 2 }).ok).toBe(true);
  });

  it('tries every branch when a $ref branch has keywords of its own beside it', () => {
    const check = compileSchemaValidator({ oneOf: [{ $ref: '#/$defs/Circle', description: 'round' }, square], $defs: { Circle: circle } });
    expect(check({ kind: 'circle', r: 'x' })).toEqual({ ok: false, issues: [{ path: '', message: 'does not match any allowed shape (must be a number (got string "x"))' }] });
    expect(check({ kind: 'circle', r: 1 }).ok).toBe(true);
  });
});
