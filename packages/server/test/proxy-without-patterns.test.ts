import { withoutPatterns } from '../src/compose/proxy/withoutPatterns';

/**
 * The outputSchema the proxy checks upstream results against: the upstream's, less what would run
 * an upstream-chosen regular expression (see proxy-hostile.e2e.test.ts for the stall it prevents).
 * It may only accept more than the upstream's schema, never refuse a result that schema allows.
 */
describe('withoutPatterns', () => {
  it('drops pattern and patternProperties wherever a subschema can be, and keeps properties of those names', () => {
    const schema = JSON.parse(`{
      "type": "object",
      "properties": {
        "pattern": { "type": "string", "pattern": "^(a+)+$" },
        "patternProperties": { "type": "number" },
        "__proto__": { "type": "string", "pattern": "x" },
        "list": { "type": "array", "items": { "type": "string", "pattern": "y" }, "prefixItems": [{ "pattern": "z" }] }
      },
      "propertyNames": { "pattern": "^(a|a)+$", "maxLength": 9 },
      "allOf": [{ "pattern": "w" }],
      "$defs": { "d": { "pattern": "v", "minLength": 1 } },
      "dependencies": { "a": ["b"], "c": { "pattern": "u" } },
      "required": ["pattern"]
    }`);
    const copy = structuredClone(schema);
    expect(JSON.stringify(withoutPatterns(schema))).toBe(
      JSON.stringify({
        type: 'object',
        properties: JSON.parse(
          '{"pattern":{"type":"string"},"patternProperties":{"type":"number"},"__proto__":{"type":"string"},"list":{"type":"array","items":{"type":"string"},"prefixItems":[{}]}}',
        ),
        propertyNames: { maxLength: 9 },
        allOf: [{}],
        $defs: { d: { minLength: 1 } },
        dependencies: { a: ['b'], c: {} },
        required: ['pattern'],
      }),
    );
    expect(Object.hasOwn(withoutPatterns(schema).properties as object, '__proto__')).toBe(true);
    expect(schema).toEqual(copy);
  });

  it('drops what depends on the names patternProperties matched: additionalProperties beside it, unevaluatedProperties anywhere', () => {
    const schema = {
      type: 'object',
      unevaluatedProperties: false,
      allOf: [{ patternProperties: { '^x': { type: 'number' } }, additionalProperties: false, properties: { y: { additionalProperties: false } } }],
    };
    expect(withoutPatterns(schema)).toEqual({ type: 'object', allOf: [{ properties: { y: { additionalProperties: false } } }] });
    expect(withoutPatterns({ additionalProperties: false, unevaluatedProperties: false })).toEqual({ additionalProperties: false, unevaluatedProperties: false });
  });
});
