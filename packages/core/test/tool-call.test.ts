import { Args, buildRegistry, CallInterrupt, Param, Tool, ToolError } from '@toolwright/core';
import { compiledRegistry, type CompiledTool } from '@toolwright/core/internal';
import { ArrayMaxSize, IsArray, IsDateString, IsIn, IsInt, IsOptional, IsString, Max, MinLength } from 'class-validator';
import { compileToolCall } from '../src/invoke/compileToolCall';
import { jsonView } from '../src/invoke/jsonView';

class Stamp {
  @IsString() city!: string;
  @IsDateString() at!: string;
  @IsOptional() @IsInt() count?: number;
}

class Calls {
  @Tool({ description: 'Returns a class instance holding a Date.', output: Stamp })
  stamp() {
    return Object.assign(new Stamp(), { city: 'Oslo', at: new Date(0), count: undefined });
  }

  @Tool({ description: 'Returns a plain object.', output: Stamp })
  plain() {
    return { city: 'Rome', at: '2026-01-01T00:00:00.000Z', count: 2 };
  }

  @Tool({ description: 'Throws before returning.' })
  throwsNow(@Param('refuse') refuse: boolean): string {
    if (refuse) throw new ToolError('refused at once');
    return 'ok';
  }

  @Tool({ description: 'Rejects later.' })
  async rejectsLater(@Param('refuse') refuse: boolean): Promise<string> {
    await Promise.resolve();
    if (refuse) throw new ToolError('refused later');
    return 'ok later';
  }

  @Tool({ description: 'Interrupted by the framework at once or later.' })
  interrupted(@Param('later') later: boolean): string | Promise<string> {
    if (!later) throw new CallInterrupt('waiting for the client');
    return Promise.resolve().then(() => {
      throw new CallInterrupt('waiting for the client later');
    });
  }

  @Tool({ description: 'Returns a thenable that is not a Promise.' })
  thenable(): PromiseLike<string> {
    return { then: (resolve) => Promise.resolve('from a thenable').then(resolve) };
  }
}

const text = (result: { content: { type: string; text?: string }[] }): string | undefined => result.content[0]?.text;

describe('compiled tool calls', () => {
  let tools: Map<string, CompiledTool>;
  beforeAll(() => {
    tools = new Map(compiledRegistry(buildRegistry({ tools: [Calls] })).tools.map((t) => [t.name, t]));
  });

  it('sends structuredContent in its JSON form, the same as the text', async () => {
    const result = await tools.get('stamp')!.call({}, undefined);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ city: 'Oslo', at: '1970-01-01T00:00:00.000Z' });
    expect(Object.getPrototypeOf(result.structuredContent)).toBe(Object.prototype);
    expect(JSON.parse(text(result)!)).toEqual(result.structuredContent);
  });

  it('sends a plain returned object as it is', async () => {
    const result = await tools.get('plain')!.call({}, undefined);
    expect(result.structuredContent).toEqual({ city: 'Rome', at: '2026-01-01T00:00:00.000Z', count: 2 });
    expect(JSON.parse(text(result)!)).toEqual(result.structuredContent);
  });

  it.each([
    ['throws_now', 'refused at once', 'ok'],
    ['rejects_later', 'refused later', 'ok later'],
  ])('%s: a ToolError becomes an isError result, and a success a text result', async (name, refusal, success) => {
    const refused = await tools.get(name)!.call({ refuse: true }, undefined);
    expect(refused).toEqual({ content: [{ type: 'text', text: refusal }], isError: true });
    const done = await tools.get(name)!.call({ refuse: false }, undefined);
    expect(done).toEqual({ content: [{ type: 'text', text: success }] });
  });

  it('passes on a CallInterrupt (the framework ending the call) instead of making it an error result', async () => {
    const call = tools.get('interrupted')!.call;
    await expect(call({ later: false }, undefined)).rejects.toThrow('waiting for the client');
    await expect(call({ later: true }, undefined)).rejects.toThrow('waiting for the client later');
  });

  it('awaits a thenable that is not a Promise', async () => {
    expect(text(await tools.get('thenable')!.call({}, undefined))).toBe('from a thenable');
  });

  it('answers bad arguments without running the method, always with a promise', () => {
    const pending = tools.get('throws_now')!.call({ refuse: 'yes' }, undefined);
    expect(pending).toBeInstanceOf(Promise);
    return expect(pending).resolves.toMatchObject({ isError: true });
  });
});

describe('jsonView', () => {
  it.each([
    ['a plain object', { a: 1, b: ['x', true, null], c: { d: -2.5 } }],
    ['an array', [1, 'two', { three: 3 }]],
    ['a null-prototype object', Object.assign(Object.create(null) as object, { a: 1 })],
    ['a string', 'text'],
  ])('returns %s itself', (_, value) => {
    expect(jsonView(value, JSON.stringify(value))).toBe(value);
  });

  it.each([
    ['a Date inside', { at: new Date(0) }, { at: '1970-01-01T00:00:00.000Z' }],
    ['an undefined property', { a: 1, b: undefined }, { a: 1 }],
    ['NaN', { n: Number.NaN }, { n: null }],
    [
      'a class instance',
      new (class Point {
        x = 1;
      })(),
      { x: 1 },
    ],
    ['a toJSON method', { toJSON: () => 'custom' }, 'custom'],
    ['an array hole', [1, , 3], [1, null, 3]], // eslint-disable-line no-sparse-arrays -- the hole is the case: JSON writes it as null
  ])('reads %s back from the text', (_, value, expected) => {
    const view = jsonView(value, JSON.stringify(value));
    expect(view).not.toBe(value);
    expect(view).toEqual(expected);
  });
});

describe('custom class-validator messages', () => {
  class Labelled {
    @IsString({ message: '$property must be text' })
    @MinLength(3, { message: 'Type at least $constraint1 characters for $property, not "$value".' })
    name!: string;

    @IsIn(['low', 'high'], { message: 'Pick low or high.' })
    level!: string;

    @IsArray()
    @ArrayMaxSize(2, { message: 'Two tags at most.' })
    @IsString({ each: true, message: 'Each tag must be text.' })
    tags!: string[];

    @IsOptional()
    @IsInt()
    @Max(9)
    plain?: number;
  }

  class Plain {
    @IsString() @MinLength(3) name!: string;
    @IsIn(['low', 'high']) level!: string;
    @IsArray() @ArrayMaxSize(2) @IsString({ each: true }) tags!: string[];
    @IsOptional() @IsInt() @Max(9) plain?: number;
  }

  class Forms {
    @Tool({ description: 'With messages.' })
    labelled(@Args() input: Labelled) {
      return input.name;
    }

    @Tool({ description: 'Without messages.' })
    plain(@Args() input: Plain) {
      return input.name;
    }
  }

  const registry = () => compiledRegistry(buildRegistry({ tools: [Forms] }));

  it("reports the app's own messages, with class-validator's tokens filled in", async () => {
    const result = await registry()
      .tool('labelled')!
      .call({ name: 'ab', level: 'mid', tags: ['a', 7, 'c'], plain: 10 }, undefined);
    expect(text(result)!.split('\n')).toEqual([
      "Invalid arguments for tool 'labelled':",
      '- name: Type at least 3 characters for name, not "ab".',
      '- level: Pick low or high.',
      '- tags: Two tags at most.',
      '- tags[1]: Each tag must be text.',
      '- plain: must be at most 9',
    ]);
    const wrongType = await registry().tool('labelled')!.call({ name: 5, level: 'low', tags: [] }, undefined);
    expect(text(wrongType)).toContain('- name: name must be text');
  });

  it('says a missing property is required, whatever messages its decorators carry', async () => {
    const result = await registry().tool('labelled')!.call({ level: 'low', tags: [] }, undefined);
    expect(text(result)!.split('\n')).toEqual(["Invalid arguments for tool 'labelled':", '- name: is required']);
  });

  it('keeps the advertised schema plain JSON Schema', () => {
    const { tool } = registry();
    expect(JSON.stringify(tool('labelled')!.descriptor.inputSchema)).toBe(JSON.stringify(tool('plain')!.descriptor.inputSchema));
  });
});

describe('a tool call compiled on first use', () => {
  const logged: unknown[][] = [];
  const logger = { debug: () => {}, info: () => {}, warn: () => {}, error: (...args: unknown[]) => void logged.push(args) };
  // A schema buildTool would refuse ($ref to nothing): compiling it throws, which shows when the compiling happens.
  const spec = {
    name: 'dangling',
    cls: Calls,
    methodName: 'plain',
    binding: { kind: 'raw', index: 0, ctxIndex: undefined, arity: 1 },
    inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
    outputSchema: undefined,
    container: { get: (cls: new () => unknown) => new cls() },
    coerce: false,
    logger,
  } as unknown as Parameters<typeof compileToolCall>[0];

  it('is not compiled when the app is built', () => {
    expect(() => compileToolCall(spec)).not.toThrow();
  });

  it("answers a failure to compile with the tool's internal error, logged, and keeps answering", async () => {
    const call = compileToolCall(spec);
    for (const args of [{ a: 1 }, {}]) {
      const result = await call(args, undefined);
      expect(result).toEqual({ isError: true, content: [{ type: 'text', text: "Tool 'dangling' failed with an internal error. The server log has the details." }] });
    }
    expect(logged).toHaveLength(2);
    expect(String((logged[0][1] as Error).message)).toContain("Cannot resolve $ref '#/$defs/missing'");
  });
});
