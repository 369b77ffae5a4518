import 'reflect-metadata';
import { BuildError, buildRegistry, compileSchemaValidator, Param, Tool, TransformTools, type JsonSchema, type PatternCompiler } from '@toolwright/core';
import { compiledRegistry } from '@toolwright/core/internal';

/**
 * `compilePattern`: how a schema's `pattern`s and `patternProperties` names are compiled, for
 * schemas someone else wrote (fromOpenApi gives a linear-time engine). Without it, RegExp.
 */

/** A compiler that records the sources it compiles and the values it tests, answering as RegExp; it refuses `refuse`. */
function recording(refuse?: string): { compile: PatternCompiler; sources: string[]; tested: string[] } {
  const sources: string[] = [];
  const tested: string[] = [];
  return {
    sources,
    tested,
    compile: (source) => {
      sources.push(source);
      if (source === refuse) throw new Error('it uses a backreference');
      const re = new RegExp(source, 'u');
      return { test: (value) => (tested.push(`${source} ${value}`), re.test(value)) };
    },
  };
}

const schema: JsonSchema = {
  type: 'object',
  properties: {
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    labels: { type: 'object', patternProperties: { '^l-': { type: 'integer' } }, additionalProperties: false, propertyNames: { pattern: '^[a-z-]+$' } },
  },
};

describe('compileSchemaValidator({ compilePattern })', () => {
  it('compiles every pattern with it, and checks values as RegExp would', () => {
    const { compile, sources } = recording();
    const validate = compileSchemaValidator(schema, { compilePattern: compile });
    // Once when the schema is checked, once when it is compiled.
    expect([...new Set(sources)].sort()).toEqual(['^[A-Z]{3}$', '^[a-z-]+$', '^l-']);
    expect(validate({ code: 'ABC', labels: { 'l-x': 1 } })).toMatchObject({ ok: true });
    expect(validate({ code: 'abc', labels: { 'l-x': 'one', other: 2 } })).toEqual({
      ok: false,
      issues: [
        { path: 'code', message: 'must match the pattern ^[A-Z]{3}$' },
        { path: 'labels.l-x', message: 'must be an integer (got string "one")' },
        { path: 'labels.other', message: 'is not allowed (unknown property)' },
      ],
    });
    expect(compileSchemaValidator(schema)({ code: 'abc' })).toEqual(validate({ code: 'abc' }));
  });

  it('refuses a schema with a pattern the compiler throws for, with a BuildError pointing at it', () => {
    const { compile } = recording('^l-');
    let error: unknown;
    try {
      compileSchemaValidator(schema, { compilePattern: compile });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).problems[0]!.what).toBe(
      'uses JSON Schema that Toolwright cannot enforce: /properties/labels/patternProperties has a pattern "^l-" that `compilePattern` refuses: it uses a backreference',
    );
    // A pattern that is not a RegExp at all is reported as before, without asking the compiler.
    const broken = recording();
    expect(() => compileSchemaValidator({ type: 'string', pattern: '(' }, { compilePattern: broken.compile })).toThrow(/has a pattern "\(" that is not a valid regular expression/);
    expect(broken.sources).toEqual([]);
  });
});

describe('@Tool({ compilePattern })', () => {
  it("runs the tool's input, output and transform checks on it; other tools keep RegExp", async () => {
    const { compile, sources, tested } = recording();
    class Partner {
      @Tool({
        inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' } } },
        outputSchema: { type: 'object', properties: { id: { type: 'string', pattern: '^id-' } } },
        compilePattern: compile,
      })
      lookup(input: { code?: string }) {
        return { id: input.code === 'BAD' ? 'nope' : 'id-1' };
      }

      @Tool({ compilePattern: compile })
      echo(@Param('word', { pattern: '^[a-z]+$' }) word: string) {
        return word;
      }

      @Tool({ inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^own$' } } } })
      own(input: object) {
        return input;
      }
    }
    TransformTools({ lookup: { name: 'find', arguments: { code: { narrow: { maxLength: 3 } } } } })(Partner);
    const registry = compiledRegistry(buildRegistry({ tools: [Partner], logger: { error: () => undefined } as never }));
    // Every pattern of the tools that opted in was compiled (and so checked) at build.
    expect([...new Set(sources)].sort()).toEqual(['^[A-Z]{3}$', '^[a-z]+$', '^id-']);
    expect(registry.tool('find')!.compilePattern).toBe(compile);
    expect(registry.tool('own')!.compilePattern).toBeUndefined();

    sources.length = 0;
    const find = registry.tool('find')!;
    expect((await find.call({ code: 'ABC' }, undefined)).structuredContent).toEqual({ id: 'id-1' });
    // The transform's check of the narrowed argument, the tool's own input check, its output check.
    expect(tested).toEqual(['^[A-Z]{3}$ ABC', '^[A-Z]{3}$ ABC', '^id- id-1']);
    expect((await find.call({ code: 'abc' }, undefined)).content).toEqual([{ type: 'text', text: "Invalid arguments for tool 'find':\n- code: must match the pattern ^[A-Z]{3}$" }]);
    expect((await find.call({ code: 'BAD' }, undefined)).isError).toBe(true);
    expect((await registry.tool('echo')!.call({ word: 'Hi' }, undefined)).content).toEqual([{ type: 'text', text: "Invalid arguments for tool 'echo':\n- word: must match the pattern ^[a-z]+$" }]);
    expect((await registry.tool('own')!.call({ code: 'own' }, undefined)).isError).toBeFalsy();
    expect(tested.filter((t) => t.startsWith('^own$'))).toEqual([]);
    // The input, output and narrowed-argument validators of `find`, and echo's: compiled on first use, none of `own`'s.
    expect([...new Set(sources)].sort()).toEqual(['^[A-Z]{3}$', '^[a-z]+$', '^id-']);
  });

  it('fails the build, at startup, on a pattern the compiler refuses or a compiler that is not a function', () => {
    class Refused {
      @Tool({ inputSchema: { type: 'object', properties: { pair: { type: 'string', pattern: '^(\\w)\\1$' } } }, compilePattern: recording('^(\\w)\\1$').compile })
      pairs(input: object) {
        return input;
      }

      @Tool({ compilePattern: 'linear' as never })
      typo() {
        return 'x';
      }
    }
    let error: unknown;
    try {
      buildRegistry({ tools: [Refused] });
    } catch (e) {
      error = e;
    }
    expect((error as BuildError).problems).toEqual([
      {
        where: 'Refused.pairs inputSchema',
        what: 'uses JSON Schema that Toolwright cannot enforce: /properties/pair/pattern has a pattern "^(\\\\w)\\\\1$" that `compilePattern` refuses: it uses a backreference',
        fix: 'write a pattern that compiler can run, or compile patterns another way.',
      },
      { where: 'Refused.typo', what: 'its compilePattern is string, not a function', fix: "give (source) => an object with test(value), or leave it out for JavaScript's RegExp." },
    ]);
  });
});

/** The CPU time this process has used since `since` (from `process.cpuUsage()`), in ms: unlike the time on the clock, other work on a loaded machine does not add to it. */
const cpuMsSince = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

it("checks format: 'email' in linear time, with the same answers as before", () => {
  const email = compileSchemaValidator({ type: 'string', format: 'email' });
  for (const ok of ['a@b.co', 'first.last@sub.example.org', 'x@y.z', 'a@b.c.d', 'é@ü.de']) expect(email(ok)).toMatchObject({ ok: true });
  for (const bad of ['', 'a', 'a@b', 'a@.b', 'a@b.', '@b.co', 'a@b@c.de', 'a b@c.de', 'a@b .co', 'a@\u00a0b.co', 'a@..']) expect(email(bad)).toMatchObject({ ok: false });
  // The former pattern, /^[^\s@]+@[^\s@]+\.[^\s@]+$/, took about 13 s of CPU on this.
  const started = process.cpuUsage();
  expect(email(`a@${'.'.repeat(200_000)} `)).toMatchObject({ ok: false });
  expect(cpuMsSince(started)).toBeLessThan(1_000);
});
