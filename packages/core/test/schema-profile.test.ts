import { BuildError, buildRegistry, Param, Tool, type Class, type JsonSchema } from '@toolwright/core';
import { compileElicitationForm } from '@toolwright/core/internal';

function problemsOf(build: () => unknown): { where: string; what: string; fix: string }[] {
  try {
    build();
  } catch (error) {
    expect(BuildError.is(error)).toBe(true);
    return [...(error as BuildError).problems];
  }
  throw new Error('expected a BuildError');
}

function rawTool(inputSchema: object): Class {
  class Raw {
    run() {
      return 'ran';
    }
  }
  Tool({ inputSchema: inputSchema as JsonSchema & { type: 'object' } })(Raw.prototype, 'run', Object.getOwnPropertyDescriptor(Raw.prototype, 'run')!);
  return Raw;
}

describe('issue 13: keywords outside the schema profile are refused at build', () => {
  it.each([
    [{ type: 'object', unevaluatedProperties: false }, '/unevaluatedProperties', 'additionalProperties: false'],
    [{ type: 'object', properties: { xs: { type: 'array', items: [{ type: 'string' }] } } }, '/properties/xs/items', 'prefixItems'],
    [{ type: 'object', definitions: { a: { type: 'string' } } }, '/definitions', '$defs'],
    [{ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } }, '/properties/a/$ref', 'remote references are not fetched'],
    [{ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }, '/properties/a/$ref', "root's $defs"],
    // Regression: a broken percent-encoding threw a plain `URIError: URI malformed` out of the build.
    [{ type: 'object', properties: { a: { $ref: '#/%E0' } } }, '/properties/a/$ref', "root's $defs"],
    [{ type: 'object', properties: { n: { type: 'number', exclusiveMinimum: true, minimum: 0 } } }, '/properties/n/exclusiveMinimum', 'exclusiveMinimum: 5'],
    [{ type: 'object', discriminator: { propertyName: 'kind' } }, '/discriminator', "'x-discriminator'"],
    [{ type: 'object', properties: { s: { type: 'string', pattern: '(' } } }, '/properties/s/pattern', 'ECMAScript regular expression'],
    [{ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }, '/$schema', '2020-12'],
    // Keyword values of the wrong shape (regression: `enum: 'x'` threw `values.filter is not a function` while compiling).
    [{ type: 'object', properties: { e: { type: 'string', enum: 'x' } } }, '/properties/e/enum', 'a non-empty list of values'],
    [{ type: 'object', properties: { e: { enum: [] } } }, '/properties/e/enum', 'a non-empty list of values'],
    [{ type: 'object', properties: { t: { type: 'text' } } }, '/properties/t/type', 'a type name'],
    [{ type: 'object', required: 'a' }, '/required', 'a list of property names'],
    [{ type: 'object', properties: { s: { type: 'string', maxLength: '5' } } }, '/properties/s/maxLength', 'a whole number of 0 or more'],
    [{ type: 'object', properties: { n: { type: 'number', multipleOf: 0 } } }, '/properties/n/multipleOf', 'a number above 0'],
    [{ type: 'object', properties: { n: { type: 'number', exclusiveMaximum: '9' } } }, '/properties/n/exclusiveMaximum', 'a number'],
    [{ type: 'object', properties: { s: { type: 'string', pattern: 5 } } }, '/properties/s/pattern', 'a regular expression as a string'],
    [{ type: 'object', dependentRequired: { a: 'b' } }, '/dependentRequired', '{ name: [property names] }'],
  ])('%j is refused at %s', (schema, pointer, fix) => {
    const [problem] = problemsOf(() => buildRegistry({ tools: [rawTool(schema)] as never }));
    expect(problem.where).toBe('Raw.run inputSchema');
    expect(problem.what).toContain(`${pointer} `);
    expect(problem.fix).toContain(fix);
  });

  it('accepts annotations, vendor x- keywords, the 2020-12 dialect and local references', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      title: 'T',
      description: 'D',
      $comment: 'c',
      'x-internal': true,
      deprecated: false,
      properties: { a: { $ref: '#/$defs/a', examples: ['x'], readOnly: false, contentMediaType: 'text/plain' } },
      $defs: { a: { type: 'string', format: 'not-a-known-format' } },
    };
    expect(buildRegistry({ tools: [rawTool(schema)] as never }).tools).toHaveLength(1);
  });

  it('refuses the same keywords in a @Param schema option', () => {
    class P {
      @Tool() run(@Param('filter', { schema: { type: 'object', unevaluatedProperties: false } }) filter: object) {
        return filter;
      }
    }
    const [problem] = problemsOf(() => buildRegistry({ tools: [P] }));
    expect(problem.where).toBe("P.run param #0 'filter'");
    expect(problem.what).toContain('/unevaluatedProperties');
  });

  it('refuses them in a raw elicitation schema, and validates accepted content against it', async () => {
    const [problem] = problemsOf(() => compileElicitationForm({ type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false } as never));
    expect(problem.what).toContain('/unevaluatedProperties');
    // MCP's legacy `enumNames` is an annotation (the conformance suite's SEP-1330 form uses it).
    expect(() => compileElicitationForm({ type: 'object', properties: { e: { type: 'string', enum: ['a'], enumNames: ['A'] } } } as never)).not.toThrow();
    const form = compileElicitationForm({ type: 'object', properties: { age: { type: 'integer', minimum: 0 } }, required: ['age'] });
    expect(await form.parse({ age: 3 })).toEqual({ ok: true, value: { age: 3 } });
    expect(await form.parse({ age: -1 })).toEqual({ ok: false, issues: [{ path: 'age', message: 'must be at least 0' }] });
  });

  it("sends MCP's legacy enumNames labels in an elicitation form, checks the rest (regression: SEP-1330 legacyEnum was refused)", async () => {
    const legacyEnum = { type: 'string', enum: ['opt1', 'opt2'], enumNames: ['Option One', 'Option Two'] } as JsonSchema;
    const form = compileElicitationForm({ type: 'object', properties: { legacyEnum } });
    expect(form.requestedSchema.properties.legacyEnum).toEqual(legacyEnum);
    expect(await form.parse({ legacyEnum: 'opt2' })).toEqual({ ok: true, value: { legacyEnum: 'opt2' } });
    expect((await form.parse({ legacyEnum: 'Option Two' })).ok).toBe(false);
  });
});
