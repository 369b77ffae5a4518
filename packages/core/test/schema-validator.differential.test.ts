import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { Ajv2020 } from 'ajv/dist/2020';
import fc from 'fast-check';
import { buildRegistry, compileSchemaValidator, type JsonSchema } from '@toolwright/core';
import { dtoSchema } from '../src/schema/dtoSchema';
import { createSchemaContext } from '../src/schema/SchemaContext';
import { schemaProfileIssues } from '../src/validation/schemaProfile';
import { DTO_SCHEMA_TABLE } from './fixtures/dtoSchemaTable';
import { PARAM_SCHEMA_TABLE } from './fixtures/paramSchemaTable';
import { fuzzRuns } from './fixtures/fuzzRuns';

/**
 * Differential tests: Toolwright's validator against Ajv (JSON Schema 2020-12) and the
 * JSON Schema Test Suite, for every keyword of the supported profile. A drift in either
 * direction (a value one accepts and the other refuses) fails with the schema and value.
 */

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const ours = (schema: unknown) => compileSchemaValidator(schema as JsonSchema);
const theirs = (schema: unknown) => ajv.compile(schema as object);
/** A second, independent 2020-12 implementation: it settles the cases where Ajv has a bug. */
const second = (schema: unknown) => {
  const validator = new Validator(schema as object, '2020-12', false);
  return (value: unknown) => validator.validate(value).valid;
};

/**
 * Compiles `schema` with ours and both references; the returned check fails when ours
 * disagrees with the references. Where they disagree with each other (Ajv has bugs:
 * `prefixItems` + `contains` accepts [], `multipleOf` refuses multiples above 1e21),
 * ours must match one of them.
 */
function compileReferences(schema: unknown): (value: unknown) => void {
  const validate = ours(schema);
  const reference = theirs(schema);
  const other = second(schema);
  return (value) => {
    let expected: boolean | undefined;
    try {
      expected = reference(value);
    } catch {
      // Ajv 8.20's generated code throws on some nestings ("props0 is not defined").
    }
    const alternative = other(value);
    const ok = validate(value).ok;
    if (expected !== alternative && (ok === expected || ok === alternative)) return;
    expect({ schema, value, ok }).toEqual({ schema, value, ok: alternative });
  };
}

interface SuiteGroup {
  description: string;
  schema: unknown;
  tests: { description: string; data: unknown; valid: boolean }[];
}

/**
 * Draft 4 files whose keywords mean the same in 2020-12. Left out: `ref` and `definitions`
 * ($ref replaced its siblings in draft 4), `dependencies` and `additionalItems` (split
 * or renamed in 2020-12), `default` (an annotation only) and the optional folder.
 *
 * The suite's own `tests/draft2020-12` is on no npm package (looked up: `json-schema-test-suite`
 * 0.0.10 ships draft3 and draft4 only; `@json-schema-org/tests` 2.0.0 ships no test files and
 * pulls the suite from a git commit, draft3 to draft7). The 2020-12 keywords of the profile
 * (`prefixItems`, `contains`, `dependentRequired`, `if`/`then`/`else`, `const`, ...) are covered
 * by the generated schemas below, against Ajv and @cfworker/json-schema. When such a package
 * appears, run its draft2020-12 files here as the draft4 ones are.
 */
const SAME_IN_2020 = [
  'additionalProperties',
  'allOf',
  'anyOf',
  'enum',
  'items',
  'maxItems',
  'maxLength',
  'maxProperties',
  'maximum',
  'minItems',
  'minLength',
  'minProperties',
  'minimum',
  'multipleOf',
  'not',
  'oneOf',
  'pattern',
  'patternProperties',
  'properties',
  'required',
  'type',
  'uniqueItems',
];

describe('issue 13: the validator agrees with the JSON Schema Test Suite and Ajv', () => {
  const dir = join(dirname(require.resolve('json-schema-test-suite/package.json')), 'tests', 'draft4');
  const files = readdirSync(dir).filter((f) => SAME_IN_2020.includes(f.replace(/\.json$/, '')));
  expect(files).toHaveLength(SAME_IN_2020.length);

  for (const file of files) {
    const groups = JSON.parse(readFileSync(join(dir, file), 'utf8')) as SuiteGroup[];
    it(`${file}: every in-profile case, ours and Ajv's outcome equal the suite's`, () => {
      let checked = 0;
      for (const group of groups) {
        // Draft 4 forms 2020-12 spells differently (items as a list, boolean exclusive bounds) are refused at build.
        if (schemaProfileIssues(group.schema).length > 0) continue;
        const validate = ours(group.schema);
        const reference = theirs(group.schema);
        for (const test of group.tests) {
          const label = `${group.description} / ${test.description}`;
          expect({ label, ours: validate(test.data).ok }).toEqual({ label, ours: test.valid });
          expect({ label, ajv: reference(test.data) }).toEqual({ label, ajv: test.valid });
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(0);
    });
  }
});

// ---------- generated schemas of the whole profile, 2020-12 keywords included ----------

const KEYS = ['a', 'b', 'ab', 'x1'];
const key = fc.constantFrom(...KEYS);
const smallNumber = fc.oneof(fc.integer({ min: -4, max: 4 }), fc.constantFrom(0.5, -1.5, 2.5));
const count = fc.integer({ min: 0, max: 3 });

const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    smallNumber,
    fc.constantFrom('', 'a', 'ab', 'b1', '9', 'héllo', 'x1'),
    fc.array(tie('json'), { maxLength: 3 }),
    fc.dictionary(key, tie('json'), { maxKeys: 3, noNullPrototype: true }),
  ),
}));

/** Keyword fragments on the value itself (no subschemas). */
const assertion: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.oneof(fc.constantFrom('string', 'number', 'integer', 'boolean', 'null', 'object', 'array'), fc.constant(['string', 'null'])) }),
  fc.record({ enum: fc.array(json, { minLength: 1, maxLength: 3 }) }),
  fc.record({ const: json }),
  fc.record({ minimum: smallNumber }),
  fc.record({ maximum: smallNumber }),
  fc.record({ exclusiveMinimum: smallNumber }),
  fc.record({ exclusiveMaximum: smallNumber }),
  fc.record({ multipleOf: fc.constantFrom(2, 0.5, 3) }),
  fc.record({ minLength: count }),
  fc.record({ maxLength: count }),
  fc.record({ pattern: fc.constantFrom('^a', 'b$', '[0-9]', '^.$') }),
  fc.record({ minItems: count }),
  fc.record({ maxItems: count }),
  fc.record({ uniqueItems: fc.boolean() }),
  fc.record({ required: fc.uniqueArray(key, { maxLength: 2 }) }),
  fc.record({ minProperties: count }),
  fc.record({ maxProperties: count }),
  fc.record({ dependentRequired: fc.dictionary(key, fc.uniqueArray(key, { maxLength: 2 }), { maxKeys: 2, noNullPrototype: true }) }),
  fc.record({ title: fc.constant('annotation'), description: fc.constant('annotations never reject') }),
);

const { schema } = fc.letrec<{ schema: unknown; object: Record<string, unknown> }>((tie) => {
  const sub = tie('schema');
  const applicator: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
    fc.record({ properties: fc.dictionary(key, sub, { maxKeys: 2, noNullPrototype: true }) }),
    fc.record({ patternProperties: fc.dictionary(fc.constantFrom('^a', '1$'), sub, { maxKeys: 2, noNullPrototype: true }) }),
    fc.record({ additionalProperties: sub }),
    fc.record({ propertyNames: sub }),
    fc.record({ dependentSchemas: fc.dictionary(key, sub, { maxKeys: 2, noNullPrototype: true }) }),
    fc.record({ items: sub }),
    fc.record({ prefixItems: fc.array(sub, { minLength: 1, maxLength: 2 }) }),
    fc.record({ prefixItems: fc.array(sub, { minLength: 1, maxLength: 2 }), items: sub }),
    fc.record({ contains: sub }, { requiredKeys: ['contains'] }),
    fc.record({ contains: sub, minContains: count, maxContains: count }, { requiredKeys: ['contains'] }),
    fc.record({ allOf: fc.array(sub, { minLength: 1, maxLength: 2 }) }),
    fc.record({ anyOf: fc.array(sub, { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(sub, { minLength: 1, maxLength: 3 }) }),
    fc.record({ not: sub }),
    fc.record({ if: sub, then: sub, else: sub }, { requiredKeys: ['if'] }),
  );
  return {
    object: fc.array(fc.oneof({ weight: 2, arbitrary: assertion }, { weight: 1, arbitrary: applicator }), { maxLength: 3 }).map((parts) => Object.assign({}, ...parts) as Record<string, unknown>),
    schema: fc.oneof({ depthSize: 'small' }, { weight: 8, arbitrary: tie('object') }, { weight: 1, arbitrary: fc.boolean() }),
  };
});

describe('issue 13: generated schemas and values, ours against Ajv 2020-12', () => {
  it('accepts and refuses what the 2020-12 references do', () => {
    fc.assert(
      fc.property(
        schema.filter((s) => typeof s === 'object'),
        fc.array(json, { minLength: 6, maxLength: 6 }),
        (s, values) => {
          expect(schemaProfileIssues(s)).toEqual([]);
          const agrees = compileReferences(s);
          for (const value of values) agrees(value);
        },
      ),
      { numRuns: fuzzRuns(1500) },
    );
  });

  it('agrees on discriminated unions (branches picked by a const tag)', () => {
    const branch = (tag: string, extra: Record<string, unknown>) => ({
      type: 'object',
      properties: { kind: { const: tag }, ...extra },
      required: ['kind', ...Object.keys(extra)],
      additionalProperties: false,
    });
    const tagged = fc.record({
      key: fc.constantFrom('oneOf', 'anyOf'),
      extras: fc.array(fc.dictionary(fc.constantFrom('a', 'b'), fc.constantFrom({ type: 'number' }, { type: 'string' }), { maxKeys: 2, noNullPrototype: true }), { minLength: 2, maxLength: 3 }),
    });
    const value = fc.oneof(json, fc.record({ kind: fc.constantFrom('t0', 't1', 't2', 'x'), a: json, b: json }, { requiredKeys: [] }));
    fc.assert(
      fc.property(tagged, fc.array(value, { minLength: 8, maxLength: 8 }), ({ key, extras }, values) => {
        const agrees = compileReferences({ [key]: extras.map((extra, i) => branch(`t${i}`, extra)) });
        for (const v of values) agrees(v);
      }),
      { numRuns: fuzzRuns(300) },
    );
  });

  it('agrees on local references, recursive ones included', () => {
    const tree = {
      $defs: { node: { type: 'object', properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['value'] } },
      $ref: '#/$defs/node',
      maxProperties: 2,
    };
    fc.assert(fc.property(json, compileReferences(tree)));
    expect(ours(tree)({ value: 1, children: [{ value: 2, children: [{ value: 'x' }] }] }).ok).toBe(false);
    expect(ours(tree)({ value: 1, children: [{ value: 2, children: [] }] }).ok).toBe(true);
  });
});

describe('issue 13: the derived schemas of the type and decorator tables, ours against Ajv', () => {
  const rows: [string, JsonSchema][] = [
    ...PARAM_SCHEMA_TABLE.map((row) => [`@Param ${row.ts}`, buildRegistry({ tools: [row.cls] }).tools[0].descriptor.inputSchema as JsonSchema] as [string, JsonSchema]),
    ...DTO_SCHEMA_TABLE.map((row) => [`${row.decorator} value: ${row.tsType}`, dtoSchema(row.dto, createSchemaContext('Table.row', []))] as [string, JsonSchema]),
  ];
  /** Values near the tables' bounds and types, as the argument `v` or `value`. */
  const near = fc.oneof(
    json,
    fc.integer({ min: -200, max: 200 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 12 }),
    fc.array(fc.string({ maxLength: 3 }), { maxLength: 4 }),
  );
  const argument = near.chain((x) => fc.constantFrom({ v: x }, { value: x }, { v: x, extra: 1 }, {}));

  it.each(rows)('%s is in the profile and validates as Ajv does', (_name, schema) => {
    expect(schemaProfileIssues(schema)).toEqual([]);
    // Format checks are Toolwright's own linear-time patterns, not Ajv's: compared elsewhere.
    if (JSON.stringify(schema).includes('"format"')) return;
    fc.assert(fc.property(argument, compileReferences(schema)), { numRuns: fuzzRuns(200) });
  });
});
