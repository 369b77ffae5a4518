import 'reflect-metadata';
import { Args, Param, Tool } from '@toolwright/core';
import { Exclude, Expose, IsNumber, IsOptional, IsString, Type, ValidateNested } from '@toolwright/core/dto';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/client';

/**
 * Arguments reach the method as class-transformer and class-validator would build them, on the
 * DTO fast path too; nullable parameters arrive as null; Set and Map properties are built as
 * such and advertised as what JSON carries for them; and an output class's schema names what
 * the result really sends. Each through a real client.
 */
class Kid {
  @IsString() name!: string;
}
/** `maxDecimalPlaces` keeps a DTO off the fast path: plainToInstance and class-validator run. */
class Family {
  @ValidateNested() @Type(() => Kid) kids!: Kid[];
}
class SlowFamily {
  @ValidateNested() @Type(() => Kid) kids!: Kid[];
  @IsOptional() @IsNumber({ maxDecimalPlaces: 2 }) n?: number;
}
class Tagged {
  @IsString({ each: true }) @Type(() => String) tags!: Set<string>;
}
class Keyed {
  @ValidateNested({ each: true }) @Type(() => Kid) byId!: Map<string, Kid>;
}
class SlowKid {
  @IsString() name!: string;
  @IsOptional() @IsNumber({ maxDecimalPlaces: 2 }) n?: number;
}
/** Only `@Expose()`-d properties are input: plainToInstance reads nothing else. */
@Exclude()
class Exposed {
  @Expose() @IsString() name!: string;
  @IsOptional() @IsString() internal?: string;
}
class Renamed {
  @Expose({ name: 'user_name', toClassOnly: true }) @IsString() userName!: string;
}

/** What the method received, described by kind and class, element by element. */
function shapeOf(value: unknown): unknown {
  if (value === null) return null;
  if (value instanceof Date) return `Date ${value.toISOString()}`;
  if (value instanceof Set) return { Set: [...value].map(shapeOf) };
  if (value instanceof Map) return { Map: Object.fromEntries([...value].map(([k, v]) => [k, shapeOf(v)])) };
  if (Array.isArray(value)) return value.map(shapeOf);
  if (typeof value === 'object') return { [(value as object).constructor.name]: { ...value } };
  return value;
}

class Tools {
  @Tool({ description: 'Kids under @ValidateNested() without each, on the fast path.' })
  family(@Args() input: Family) {
    return JSON.stringify(shapeOf(input.kids));
  }
  @Tool({ description: 'The same through class-transformer and class-validator.' })
  slowFamily(@Args() input: SlowFamily) {
    return JSON.stringify(shapeOf(input.kids));
  }
  @Tool({ description: 'A Set.' })
  tagged(@Args() input: Tagged) {
    return JSON.stringify(shapeOf(input.tags));
  }
  @Tool({ description: 'A Map.' })
  keyed(@Args() input: Keyed) {
    return JSON.stringify(shapeOf(input.byId));
  }
  @Tool({ description: 'Nullable parameters.' })
  nullable(
    @Param('when', { nullable: true, type: () => Date }) when: Date | null,
    @Param('kid', { nullable: true, type: () => Kid }) kid: Kid | null,
    @Param('slow', { nullable: true, type: () => SlowKid }) slow: SlowKid | null,
    @Param('kids', { nullable: true, type: () => [Kid] }) kids: Kid[] | null,
  ) {
    return JSON.stringify(shapeOf([when, kid, slow, kids]));
  }
  @Tool({ description: 'A class whose own @Exclude() leaves out what it does not @Expose().' })
  exposed(@Args() input: Exposed) {
    return JSON.stringify(shapeOf(input));
  }
  @Tool({ description: 'An output class whose @Expose renames input keys only.', output: Renamed })
  renamed() {
    return Object.assign(new Renamed(), { userName: 'ada' });
  }
}

let app: App;
let client: Client;
beforeAll(async () => {
  app = await createApp({ name: 'review-core-arguments', version: '1.0.0', tools: [Tools] });
  client = await createTestClient(app);
});
afterAll(() => client.close());

const call = async (name: string, args: Record<string, unknown>) => {
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };
  return result;
};
const received = async (name: string, args: Record<string, unknown>) => {
  const result = await call(name, args);
  expect(result.isError).toBeUndefined();
  return JSON.parse(result.content[0].text) as unknown;
};

test.each(['family', 'slow_family'])('%s: an array under @ValidateNested() without each arrives as an array of instances', async (tool) => {
  expect(await received(tool, { kids: [{ name: 'a' }, { name: 'b' }] })).toEqual([{ Kid: { name: 'a' } }, { Kid: { name: 'b' } }]);
});

test('a Set property arrives as a Set, advertised as an array', async () => {
  const { tools } = await client.listTools();
  expect(tools.find((t) => t.name === 'tagged')!.inputSchema.properties).toEqual({ tags: { type: 'array', items: { type: 'string' } } });
  expect(await received('tagged', { tags: ['x', 'y'] })).toEqual({ Set: ['x', 'y'] });
});

test('a Map property is advertised as an object of its values and arrives as a Map of instances', async () => {
  const { tools } = await client.listTools();
  const kid = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false };
  expect(tools.find((t) => t.name === 'keyed')!.inputSchema.properties).toEqual({ byId: { type: 'object', additionalProperties: kid } });
  expect(await received('keyed', { byId: { a: { name: 'ada' } } })).toEqual({ Map: { a: { Kid: { name: 'ada' } } } });
  const refused = await call('keyed', { byId: { a: { name: 1 } } });
  expect(refused).toMatchObject({ isError: true, content: [{ text: "Invalid arguments for tool 'keyed':\n- byId.a.name: must be a string (got number 1)" }] });
});

test('nullable Date and DTO parameters receive null as null', async () => {
  expect(await received('nullable', { when: null, kid: null, slow: null, kids: null })).toEqual([null, null, null, null]);
  expect(await received('nullable', { when: '2024-01-02T03:04:05Z', kid: { name: 'k' }, slow: { name: 's' }, kids: [{ name: 'a' }] })).toEqual([
    'Date 2024-01-02T03:04:05.000Z',
    { Kid: { name: 'k' } },
    { SlowKid: { name: 's' } },
    [{ Kid: { name: 'a' } }],
  ]);
});

test("a class's own @Exclude() leaves its unexposed properties out of the input", async () => {
  const { tools } = await client.listTools();
  expect(tools.find((t) => t.name === 'exposed')!.inputSchema.properties).toEqual({ name: { type: 'string' } });
  expect(await received('exposed', { name: 'n' })).toEqual({ Exposed: { name: 'n' } });
  expect(await call('exposed', { name: 'n', internal: 'x' })).toMatchObject({
    isError: true,
    content: [{ text: "Invalid arguments for tool 'exposed':\n- internal: is not allowed (unknown property)" }],
  });
});

test('an output class is advertised under the names its result is sent with', async () => {
  const { tools } = await client.listTools();
  expect(tools.find((t) => t.name === 'renamed')!.outputSchema).toEqual({
    type: 'object',
    properties: { userName: { type: 'string' } },
    required: ['userName'],
    additionalProperties: false,
  });
  expect(await call('renamed', {})).toMatchObject({ structuredContent: { userName: 'ada' } });
});

test('with coerce, uniqueItems compares the converted values', async () => {
  class Ids {
    @Tool({ description: 'Distinct ids.' })
    ids(@Param('ids', { type: () => [Number], integer: true, uniqueItems: true }) ids: number[]) {
      return ids.join(',');
    }
  }
  const coercing = await createTestClient(await createApp({ name: 'coerce', version: '1.0.0', tools: [Ids], coerce: true }));
  try {
    expect(await coercing.callTool({ name: 'ids', arguments: { ids: ['1', '2'] } })).toMatchObject({ content: [{ text: '1,2' }] });
    expect(await coercing.callTool({ name: 'ids', arguments: { ids: ['1', 1] } })).toMatchObject({
      isError: true,
      content: [{ text: "Invalid arguments for tool 'ids':\n- ids: must not contain duplicate items" }],
    });
  } finally {
    await coercing.close();
  }
});

describe('build problems', () => {
  const buildError = async (tools: (new () => object)[]) => {
    const error = await createApp({ name: 'x', version: '1.0.0', tools }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    return (error as Error).message;
  };

  test('an output class property with @Exclude or an @Expose rename is refused, naming it', async () => {
    class User {
      @IsString() name!: string;
      @Exclude({ toPlainOnly: true }) @IsString() password!: string;
      @Expose({ name: 'e_mail' }) @IsString() email!: string;
    }
    class Users {
      @Tool({ description: 'Me.', output: User })
      me() {
        return Object.assign(new User(), { name: 'a', password: 'secret', email: 'a@b.c' });
      }
    }
    const message = await buildError([Users]);
    expect(message).toContain('Users.me (output) -> User.password: is left out by its @Exclude() in an output class');
    expect(message).toContain('so the property would go out all the same');
    expect(message).toContain('Users.me (output) -> User.email: is renamed by its @Expose({ name: "e_mail" }) in an output class');
    expect(message).toContain('so the property would go out under its own name');
  });

  test("an output class's own @Exclude() refuses its properties that have no @Expose()", async () => {
    @Exclude()
    class Account {
      @Expose() @IsString() name!: string;
      @IsString() token!: string;
    }
    class Accounts {
      @Tool({ description: 'Account.', output: Account })
      account() {
        return Object.assign(new Account(), { name: 'a', token: 'secret' });
      }
    }
    const message = await buildError([Accounts]);
    expect(message).toContain("Accounts.account (output) -> Account.token: is left out by its class's @Exclude() (it has no @Expose()) in an output class");
    expect(message).not.toContain('Account.name');
  });

  test('a Set or Map property without @Type is refused, naming it', async () => {
    class Bare {
      @IsString({ each: true }) tags!: Set<string>;
      @IsString({ each: true }) labels!: Map<string, string>;
    }
    class BareTools {
      @Tool({ description: 'Bare.' })
      bare(@Args() input: Bare) {
        return String(input);
      }
    }
    const message = await buildError([BareTools]);
    expect(message).toContain('Bare.tags: is a Set, but has no @Type(() => X)');
    expect(message).toContain('Bare.labels: is a Map, but has no @Type(() => X)');
  });

  test('an output class property holding a Set or Map is refused: JSON.stringify writes it as {}', async () => {
    class Totals {
      @IsString({ each: true }) @Type(() => String) names!: Set<string>;
      @IsNumber({}, { each: true }) @Type(() => Number) byName!: Map<string, number>;
    }
    class TotalsTools {
      @Tool({ description: 'Totals.', output: Totals })
      totals() {
        return Object.assign(new Totals(), { names: new Set(['a']), byName: new Map([['a', 1]]) });
      }
    }
    const message = await buildError([TotalsTools]);
    expect(message).toContain('TotalsTools.totals (output) -> Totals.names: is a Set in an output class, which JSON.stringify writes as {}');
    expect(message).toContain('TotalsTools.totals (output) -> Totals.byName: is a Map in an output class, which JSON.stringify writes as {}');
  });
});
