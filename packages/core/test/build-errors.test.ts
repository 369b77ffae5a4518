import { Args, BuildError, buildRegistry, Ctx, FromCall, OnStart, Param, Prompt, Property, Resource, Tool, type Class, type ContainerLike } from '@toolwright/core';
import { Exclude, Type } from 'class-transformer';
import { IsString, ValidateNested } from 'class-validator';

function problemsOf(tools: Class[], container?: ContainerLike): { where: string; what: string; fix: string }[] {
  try {
    buildRegistry({ tools: tools as never, container });
  } catch (error) {
    expect(error).toBeInstanceOf(BuildError);
    expect(BuildError.is(error)).toBe(true);
    return [...(error as BuildError).problems];
  }
  throw new Error('expected a BuildError');
}

describe('build errors', () => {
  it('reports every problem at once, each with where, what and fix', () => {
    class Broken {
      @Tool() a(@Param('xs') xs: string[]) {
        return xs;
      }
      @Tool() b(@Param('u') u: string | number) {
        return u;
      }
      @Tool({ name: 'bad name!' }) c() {
        return 1;
      }
    }
    const problems = problemsOf([Broken]);
    expect(problems.map((p) => p.where)).toEqual(["Broken.a param #0 'xs'", "Broken.b param #0 'u'", 'Broken.c']);
    expect(problems[0].what).toMatch(/array.*element type cannot be known/);
    expect(problems[0].fix).toContain('type: () => [String]');
    expect(problems[1].what).toMatch(/cannot be inferred.*Object/);
    expect(problems[2].what).toContain("'bad name!' is invalid");
    const message = new BuildError(problems).message;
    expect(message).toMatch(/^Toolwright cannot build this app \(3 problems\):/);
    expect(message).toContain('Fix: ');
  });

  it('reports duplicate tool names across classes', () => {
    class One {
      @Tool() getTime() {
        return 1;
      }
    }
    class Two {
      @Tool({ name: 'get_time' }) now() {
        return 2;
      }
    }
    const [p] = problemsOf([One, Two]);
    expect(p).toMatchObject({ where: 'Two.now', what: "its tool name 'get_time' is already used by One.getTime" });
  });

  it('rejects names longer than 128 characters and accepts dots and hyphens', () => {
    class Long {
      @Tool({ name: 'x'.repeat(129) }) a() {
        return 1;
      }
    }
    expect(problemsOf([Long])[0].what).toMatch(/is invalid/);
    class Ok {
      @Tool({ name: 'ns.get-thing_2' }) a() {
        return 1;
      }
    }
    expect(buildRegistry({ tools: [Ok] }).tools[0].name).toBe('ns.get-thing_2');
  });

  it('reports parameters without a decorator', () => {
    class Missing {
      @Tool() a(@Param('x') x: string, y: string) {
        return x + y;
      }
    }
    expect(problemsOf([Missing])).toEqual([expect.objectContaining({ where: 'Missing.a param #1', what: expect.stringContaining('has no decorator') })]);
  });

  it('reports missing decorator metadata, as under esbuild/tsx', () => {
    class NoMeta {
      @Tool() a(@Param('x') x: string) {
        return x;
      }
    }
    Reflect.deleteMetadata('design:paramtypes', NoMeta.prototype, 'a');
    const [p] = problemsOf([NoMeta]);
    expect(p.where).toBe("NoMeta.a param #0 'x'");
    expect(p.what).toMatch(/decorator metadata was not emitted \(esbuild, tsx/);
    expect(p.fix).toMatch(/emitDecoratorMetadata/);
  });

  it('reports a DTO without class-validator decorators', () => {
    class Plain {
      name!: string;
    }
    class UsesPlain {
      @Tool() a(@Args() input: Plain) {
        return input;
      }
    }
    const problems = problemsOf([UsesPlain]);
    expect(problems.some((p) => p.where.includes('Plain') && /class-validator/.test(p.fix))).toBe(true);
  });

  // Issue 30 #2: an undecorated DTO property vanished from the schema without a word.
  it('reports a DTO property without a decorator, in inputs, nested DTOs and outputs, when the class fields are emitted (ES2022)', () => {
    class Address {
      @IsString() city!: string;
      zip!: string;
    }
    class OrderInput {
      @IsString() sku!: string;
      discountCode!: string;
      @ValidateNested() @Type(() => Address) shipTo!: Address;
      @Exclude() internal?: string;
    }
    class Receipt {
      @IsString() id!: string;
      total!: number;
    }
    class Orders {
      @Tool({ output: Receipt }) place(@Args() input: OrderInput) {
        return { id: input.sku, total: 1 };
      }
    }
    const problems = problemsOf([Orders]);
    expect(problems.map((p) => p.where)).toEqual(['Orders.place -> Address.zip', 'Orders.place -> OrderInput.discountCode', 'Orders.place (output) -> Receipt.total']);
    expect(problems[1].what).toBe('has no decorator, so class-validator never sees it: it is missing from the schema and a value sent for it is refused as an unknown property');
    expect(problems[1].fix).toMatch(/^add a class-validator decorator such as @IsString\(\).*or @Allow\(\) to accept any value$/);
  });

  it('reports @Args whose type is not a class', () => {
    class NotDto {
      @Tool() a(@Args() input: Record<string, string>) {
        return input;
      }
    }
    expect(problemsOf([NotDto])[0].what).toMatch(/@Args\(\) needs a class-validator DTO class/);
  });

  it('reports mixing @Args with @Param, repeated names and two @Ctx', () => {
    class Mixed {
      @Tool() a(@Args() input: object, @Param('x') x: string) {
        return [input, x];
      }
      @Tool() b(@Param('x') x: string, @Param('x') y: string) {
        return x + y;
      }
      @Tool() c(@Ctx() a: unknown, @Ctx() b: unknown) {
        return [a, b];
      }
    }
    const whats = problemsOf([Mixed]).map((p) => p.what);
    expect(whats).toEqual(
      expect.arrayContaining([expect.stringContaining('mixes @Args() with @Param()'), expect.stringContaining("repeats the argument name 'x'"), expect.stringContaining('more than one @Ctx()')]),
    );
  });

  it('reports a class the container cannot build', () => {
    class Db {
      query() {
        return 1;
      }
    }
    class NeedsDb {
      constructor(private readonly db: Db) {}
      @Tool() a() {
        return this.db.query();
      }
    }
    const [p] = problemsOf([NeedsDb]);
    expect(p.where).toBe('NeedsDb');
    // Without a class decorator TypeScript records no constructor types: that is the cause named.
    expect(p.what).toMatch(/constructor takes 1 parameter, but no constructor types were emitted/);
    expect(p.fix).toMatch(/@Service\(\)/);
  });

  it('names what a container threw when it is not an Error', () => {
    class Tools {
      @Tool() a() {
        return 1;
      }
    }
    const [p] = problemsOf([Tools], {
      get: () => {
        throw 'no binding for Tools';
      },
    });
    expect(p.what).toBe('the container cannot build this class: no binding for Tools');
  });

  it('names what an output class thunk threw when it is not an Error', () => {
    class Tools {
      @Tool({
        output: () => {
          throw 'not yet defined';
        },
      })
      a() {
        return 1;
      }
    }
    const problems = problemsOf([Tools]);
    expect(problems.map((p) => p.what)).toContain('its input/output class cannot be resolved: not yet defined');
  });

  it('refuses a misplaced @FromCall() and a static @OnStart() with a ConfigError that names the fix', () => {
    expect(() => {
      class Tools {
        @Tool() a(@FromCall('context') ctx: unknown) {
          return ctx;
        }
      }
      return Tools;
    }).toThrow(expect.objectContaining({ kind: 'config', message: expect.stringContaining('take @Ctx() instead') }));
    expect(() => {
      class Hooks {
        @OnStart() static start() {}
      }
      return Hooks;
    }).toThrow(expect.objectContaining({ kind: 'config', message: expect.stringContaining('put it on an instance method') }));
  });

  it('reports classes without tools and static tool methods', () => {
    class Empty {}
    class Static {
      @Tool() static a() {
        return 1;
      }
    }
    const problems = problemsOf([Empty, Static]);
    expect(problems.map((p) => p.where)).toEqual(['Empty', 'Static.a']);
  });

  it('reports a type thunk that throws (e.g. a class not yet defined)', () => {
    class Thunky {
      @Tool() a(
        @Param('x', {
          type: () => {
            throw new ReferenceError('Later is not defined');
          },
        })
        x: unknown,
      ) {
        return x;
      }
    }
    expect(problemsOf([Thunky])[0].what).toContain('Later is not defined');
  });
});

describe('decorator options a list could not send', () => {
  class Fine {
    @Tool({ annotations: { title: 'Fine', readOnlyHint: true }, _meta: { 'example.com/added': '2026-12-04', list: [1, 'a', null, { deep: [true] }], skipped: undefined } }) fine() {
      return 1;
    }
  }

  it('accepts strings, finite numbers, booleans, null, arrays, plain objects, and leaves undefined members out', () => {
    expect(buildRegistry({ tools: [Fine] }).toolList.tools[0]._meta).toEqual({ 'example.com/added': '2026-12-04', list: [1, 'a', null, { deep: [true] }] });
  });

  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic.self = cyclic;
  it.each<[string, Record<string, unknown>, string]>([
    ['a BigInt', { rows: 10n }, 'its option _meta.rows is a BigInt, which JSON cannot carry'],
    ['a function', { render: () => 1 }, 'its option _meta.render is a function, which JSON cannot carry'],
    ['a symbol', { tag: Symbol('x') }, 'its option _meta.tag is a symbol, which JSON cannot carry'],
    ['an infinite number', { limit: Infinity }, 'its option _meta.limit is Infinity, which JSON has no form for'],
    ['NaN in an array', { scores: [1, NaN] }, 'its option _meta.scores[1] is NaN, which JSON has no form for'],
    ['undefined in an array', { items: ['a', undefined] }, 'its option _meta.items[1] is undefined, which JSON cannot carry'],
    ['a Date', { 'example.com/since': new Date(0) }, 'its option _meta["example.com/since"] is a Date, which a list would send as {}'],
    ['a Map', { table: new Map([['a', 1]]) }, 'its option _meta.table is a Map, which a list would send as {}'],
    ['a cycle', { graph: cyclic }, 'its option _meta.graph.self refers back to an object that contains it (a cycle)'],
  ])('refuses %s in _meta at build, naming the tool and the path', (_, meta, what) => {
    class Odd {
      @Tool({ _meta: meta }) odd() {
        return 1;
      }
    }
    expect(problemsOf([Odd])).toEqual([{ where: 'Odd.odd', what, fix: expect.stringContaining('decorator options go out as JSON') }]);
  });

  it('refuses them in annotations, and in resource and prompt options too', () => {
    class Odd {
      @Tool({ annotations: { title: 'x', count: 1n } as never }) tool() {
        return 1;
      }
      @Resource('file:///a.txt', { _meta: { at: new Date(0) } }) file() {
        return 'a';
      }
      @Prompt({ _meta: { n: 2n } }) ask() {
        return 'hi';
      }
    }
    expect(problemsOf([Odd]).map((p) => [p.where, p.what])).toEqual([
      ['Odd.file', 'its option _meta.at is a Date, which a list would send as {}'],
      ['Odd.ask', 'its option _meta.n is a BigInt, which JSON cannot carry'],
      ['Odd.tool', 'its option annotations.count is a BigInt, which JSON cannot carry'],
    ]);
  });
});

describe('decorator options of another type than MCP gives them', () => {
  // What JavaScript, a cast or options read from a file let through. A client checks each listed
  // descriptor against MCP's schema, and one mistyped field made it refuse the whole list.
  const loose = (value: unknown) => value as never;

  it.each<[string, object, string]>([
    ['a number as the name', { name: 42 }, 'its option name is a number, not a string'],
    ['a number as the description', { description: 5 }, 'its option description is a number, not a string'],
    ['a string as the annotations', { annotations: 'readOnly' }, 'its option annotations is a string, not an object'],
    ['a string as a hint', { annotations: { readOnlyHint: 'yes' } }, 'its option annotations.readOnlyHint is a string, not a boolean'],
    ['a string as an icon list', { icons: 'a.png' }, 'its option icons is a string, not an array'],
    ['a string as an icon size list', { icons: [{ src: 'https://example.com/a.png', sizes: '48x48' }] }, 'its option icons[0].sizes is a string, not an array'],
    ['a string as _meta', { _meta: 'x' }, 'its option _meta is a string, not an object'],
  ])('refuses %s on a tool, naming the field', (_, options, what) => {
    class Odd {
      @Tool(loose(options)) odd() {
        return 1;
      }
    }
    expect(problemsOf([Odd])).toEqual([{ where: 'Odd.odd', what, fix: expect.stringContaining('one that fails makes the whole list fail') }]);
  });

  it('refuses them on resources, prompts and their arguments, and on @Param options', () => {
    class Odd {
      @Resource('notes://a', loose({ mimeType: 3 })) mime() {
        return 'a';
      }
      @Resource('notes://b', loose({ annotations: { audience: 'user' } })) audience() {
        return 'b';
      }
      @Prompt(loose({ title: ['Ask'] })) ask() {
        return 'hi';
      }
      @Tool() search(@Param('query', loose({ description: 5 })) query: string, @Param('limit', loose({ maximum: '10' })) limit: number) {
        return `${query}${limit}`;
      }
    }
    expect(problemsOf([Odd]).map((p) => [p.where, p.what])).toEqual([
      ['Odd.mime', 'its option mimeType is a number, not a string'],
      ['Odd.audience', 'its option annotations.audience is a string, not an array'],
      ['Odd.ask', 'its option title is an array, not a string'],
      ["Odd.search param #1 'limit'", 'its option maximum is a string, not a number'],
      ["Odd.search param #0 'query'", 'its option description is a number, not a string'],
    ]);
  });

  it('refuses a name where the options object goes', () => {
    class Odd {
      @Tool(loose('greet')) greet() {
        return 'hi';
      }
      @Prompt(loose('summarize')) summarize() {
        return 'hi';
      }
      @Resource('notes://c', loose('One note')) note() {
        return 'c';
      }
      @Tool() find(@Param('q', loose('the query')) q: string) {
        return q;
      }
    }
    expect(problemsOf([Odd]).map((p) => [p.where, p.what, p.fix])).toEqual([
      ['Odd.note', "@Resource() takes an options object, but was given the string 'One note'", expect.stringContaining("@Resource('notes://{id}', {")],
      ['Odd.summarize', "@Prompt() takes an options object, but was given the string 'summarize'", expect.stringContaining('@Prompt({ name: ')],
      ['Odd.greet', "@Tool() takes an options object, but was given the string 'greet'", expect.stringContaining('@Tool({ name: ')],
      ["Odd.find param #0 'q'", "@Param() takes an options object, but was given the string 'the query'", expect.stringContaining("@Param('city', {")],
    ]);
  });

  it.each([-1, 0, '5s', Infinity, NaN])('refuses a tool timeoutMs of %p, which fails every call at once', (timeoutMs) => {
    class Odd {
      @Tool(loose({ timeoutMs })) odd() {
        return 1;
      }
    }
    expect(problemsOf([Odd])).toEqual([{ where: 'Odd.odd', what: expect.stringContaining('not a positive number of milliseconds'), fix: expect.stringContaining('timeoutMs: 5_000') }]);
  });

  it('accepts every option with the type MCP gives it', () => {
    class Fine {
      @Tool({
        name: 'fine',
        title: 'Fine',
        description: 'd',
        annotations: { title: 'F', readOnlyHint: true },
        icons: [{ src: 'https://example.com/a.png', sizes: ['48x48'], theme: 'dark' }],
        _meta: { a: 1 },
        timeoutMs: 100,
      })
      fine(@Param('q', { description: 'q', title: 'Q', minLength: 1, optional: true }) q?: string) {
        return q;
      }
      @Resource('notes://fine', { mimeType: 'text/plain', size: 3, annotations: { audience: ['user'], priority: 0.5, lastModified: '2026-12-04T00:00:00Z' } }) note() {
        return 'n';
      }
      @Prompt({ title: 'Ask', description: 'a' }) ask(@Param('topic', { description: 't' }) topic: string) {
        return topic;
      }
    }
    const registry = buildRegistry({ tools: [Fine] as never });
    expect(registry.toolList.tools.map((t) => t.name)).toEqual(['fine']);
  });
});

describe('@Property options of another type than the schema keyword they become', () => {
  it('refuses them with the DTO property named, and accepts the right types', () => {
    class Query {
      @Property({ description: 5 as never, examples: 'tokyo' as never }) @IsString() city!: string;
      @Property({ description: 'How many', title: 'Limit', examples: [10, 20], deprecated: false }) @IsString() limit!: string;
    }
    class Search {
      @Tool() search(@Args() query: Query) {
        return query.city;
      }
    }
    expect(problemsOf([Search]).map((p) => [p.where, p.what])).toEqual([['Search.search -> Query.city', 'its @Property option description is a number, not a string']]);
  });
});
