import { BuildError, buildRegistry, compileSchemaValidator, Tool, type Class, type JsonSchema } from '@toolwright/core';

/** A loop of `$ref`s that never steps into a property or an item is refused when the schema is compiled (it overflowed the stack on the first value). */

function problemOf(build: () => unknown): { where: string; what: string; fix: string } {
  try {
    build();
  } catch (error) {
    expect(BuildError.is(error)).toBe(true);
    return (error as BuildError).problems[0];
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

describe('compileSchemaValidator: loops of bare $refs', () => {
  it.each([
    ['one', { oneOf: [{ $ref: '#/$defs/A' }, { type: 'string' }], $defs: { A: { $ref: '#/$defs/A' } } }, '/$defs/A/$ref', '#/$defs/A -> #/$defs/A'],
    ['two', { oneOf: [{ $ref: '#/$defs/A' }, { type: 'string' }], $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } } }, '/$defs/A/$ref', '#/$defs/A -> #/$defs/B -> #/$defs/A'],
    [
      'three',
      { type: 'object', properties: { x: { $ref: '#/$defs/A' } }, $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/C' }, C: { $ref: '#/$defs/A' } } },
      '/$defs/A/$ref',
      '#/$defs/A -> #/$defs/B -> #/$defs/C -> #/$defs/A',
    ],
    ['the root', { $ref: '#' }, '/$ref', '# -> #'],
    ['an allOf', { $defs: { A: { allOf: [{ type: 'object' }, { $ref: '#/$defs/A' }] } }, $ref: '#/$defs/A' }, '/$defs/A/allOf/1', '#/$defs/A -> #/$defs/A/allOf/1 -> #/$defs/A'],
  ])('refuses a loop of %s, naming its path and the fix', (_, schema, pointer, loop) => {
    const problem = problemOf(() => compileSchemaValidator(schema as JsonSchema));
    expect(problem.what).toContain(`${pointer} starts a loop of $refs`);
    expect(problem.what).toContain(`(${loop})`);
    expect(problem.fix).toContain('give one of them a schema of its own');
  });

  it('reports a loop once, however many schemas point into it', () => {
    const schema = { anyOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }], $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } } };
    const problem = problemOf(() => compileSchemaValidator(schema as JsonSchema));
    expect(problem.what.match(/starts a loop/g)).toHaveLength(1);
  });

  it('accepts a chain of $refs that ends in a schema of its own', () => {
    const check = compileSchemaValidator({ oneOf: [{ $ref: '#/$defs/A' }, { type: 'number' }], $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/C' }, C: { type: 'string' } } } as JsonSchema);
    expect(check('x')).toEqual({ ok: true, value: 'x' });
    expect(check(1)).toEqual({ ok: true, value: 1 });
    expect(check(true).ok).toBe(false);
  });

  it('accepts a recursive object schema (the loop steps into a property and an item)', () => {
    const tree = {
      $ref: '#/$defs/Node',
      $defs: {
        Node: { $ref: '#/$defs/Shape' },
        Shape: { type: 'object', properties: { value: { type: 'integer' }, next: { $ref: '#/$defs/Node' }, children: { type: 'array', items: { $ref: '#' } } }, required: ['value'] },
      },
    };
    const check = compileSchemaValidator(tree as JsonSchema);
    expect(check({ value: 1, next: { value: 2 }, children: [{ value: 3, next: { value: 4 } }] }).ok).toBe(true);
    expect(check({ value: 1, next: { value: 'two' } })).toEqual({ ok: false, issues: [{ path: 'next.value', message: 'must be an integer (got string "two")' }] });
  });

  it('fails the build of a tool whose inputSchema holds such a loop', () => {
    const schema = { type: 'object', properties: { shape: { oneOf: [{ $ref: '#/$defs/A' }, { type: 'string' }] } }, $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } } };
    const problem = problemOf(() => buildRegistry({ tools: [rawTool(schema)] as never }));
    expect(problem.where).toBe('Raw.run inputSchema');
    expect(problem.what).toContain('/$defs/A/$ref starts a loop of $refs that never steps into a property or an item (#/$defs/A -> #/$defs/B -> #/$defs/A)');
  });
});
