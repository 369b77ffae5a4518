import 'reflect-metadata';
import { Ajv2020 } from 'ajv/dist/2020';
import {
  BuildError,
  Param,
  Prompt,
  Resource,
  ResourceNotFoundError,
  Scoped,
  Tool,
  TransformTools,
  UseMiddleware,
  type MemberCall,
  type Next,
  type ResourceOptions,
  type ToolLogger,
} from '@toolwright/core';
import { IsNumber, IsOptional, IsString } from '@toolwright/core/dto';
import { Service } from 'typedi';
import { createApp } from '@toolwright/server';
import { createTestClient, type TestEra } from '@toolwright/server/testing';

/**
 * Defects found reading core's prompts, resources, transforms, DTO messages and middleware,
 * each through a real SDK v2 client in memory, in both eras: what `tools/list` advertises for
 * a narrowed argument is what the call accepts; a nested DTO's error names a key that is no
 * identifier as `m["unit-price"]`; descriptor values MCP's schema refuses (which make a client
 * drop the whole list) fail the build; a middleware that drops or delays `next()` neither ends
 * the process nor runs the method after its call has ended.
 */
const eras: TestEra[] = ['legacy', 'modern'];
const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

describe.each(eras)('a transform that narrows an argument with its own pattern or format, %s era', (era) => {
  class Codes {
    @Tool({ description: 'Takes a code.' })
    code(
      @Param('code', { pattern: '^[A-Z]+$' }) code: string,
      @Param('mail', { format: 'email', optional: true }) mail?: string,
      @Param('n', { type: () => Number, integer: true, multipleOf: 2, optional: true }) n?: number,
    ) {
      return { code, mail: mail ?? null, n: n ?? null };
    }
  }
  @TransformTools({ code: { arguments: { code: { narrow: { pattern: '^.{3}$' } }, mail: { narrow: { format: 'uri' } }, n: { narrow: { multipleOf: 3, maximum: 100 } } } } })
  class ShortCodes extends Codes {}

  it('advertises both patterns (and both multipleOf), so a value the listed schema accepts is one the call accepts, and the reverse', async () => {
    const client = await createTestClient(await createApp({ name: 'codes', version: '1', tools: [ShortCodes] }), { era });
    const [tool] = (await client.listTools()).tools;
    const listed = tool!.inputSchema.properties!.code as object;
    const accepts = new Ajv2020({ strict: false }).compile(listed);
    for (const code of ['ABC', 'abc', 'ABCD', 'AB', 'A1C']) {
      const result = await client.callTool({ name: 'code', arguments: { code } });
      expect({ code, called: !result.isError }).toEqual({ code, called: accepts(code) });
    }
    const n = new Ajv2020({ strict: false }).compile(tool!.inputSchema.properties!.n as object);
    for (const value of [6, 4, 3, 12, 102]) {
      const result = await client.callTool({ name: 'code', arguments: { code: 'ABC', n: value } });
      expect({ value, called: !result.isError }).toEqual({ value, called: n(value) });
    }
    // The tool's own format stays; the narrowing's is added beside it (no value here is both).
    expect(tool!.inputSchema.properties!.mail).toEqual({ type: 'string', format: 'email', allOf: [{ format: 'uri' }] });
    await client.close();
  });
});

describe.each(eras)("a nested DTO @Param's key that is no identifier, on the class-validator path, %s era", (era) => {
  class Line {
    @IsString() sku!: string;
    // `maxDecimalPlaces` keeps the class off the fast path: class-validator finds this one.
    @IsOptional() @IsNumber({ maxDecimalPlaces: 2 }) 'unit-price'?: number;
  }
  class Orders {
    @Tool({ description: 'One line.' })
    line(@Param('m', { type: () => Line }) m: Line) {
      return m.sku;
    }
    @Tool({ description: 'Some lines.' })
    lines(@Param('ms', { type: () => [Line] }) ms: Line[]) {
      return ms.length;
    }
  }

  it('is named m["unit-price"] and ms[1]["unit-price"], as the @Args path names it', async () => {
    const client = await createTestClient(await createApp({ name: 'orders', version: '1', tools: [Orders] }), { era });
    const line = { sku: 'a', 'unit-price': 1.234 };
    expect(textOf(await client.callTool({ name: 'line', arguments: { m: line } }))).toContain('\n- m["unit-price"]: ');
    expect(textOf(await client.callTool({ name: 'lines', arguments: { ms: [{ sku: 'b' }, line] } }))).toContain('\n- ms[1]["unit-price"]: ');
    await client.close();
  });
});

describe.each(eras)("descriptor values MCP's schema refuses, %s era", (era) => {
  const refused: [string, ResourceOptions, string][] = [
    ['a priority above 1', { annotations: { priority: 2 } }, 'annotations.priority is 2, not a number from 0 to 1'],
    ['a lastModified in words', { annotations: { lastModified: 'last week' } }, 'annotations.lastModified is "last week", not an ISO 8601 date-time'],
    ['a lastModified without seconds', { annotations: { lastModified: '2026-01-31T09:30Z' } }, 'annotations.lastModified'],
    ['a lastModified on no calendar day', { annotations: { lastModified: '2026-02-30T09:30:00Z' } }, 'annotations.lastModified'],
    ['an audience that is no role', { annotations: { audience: ['bot' as 'user'] } }, "annotations.audience[0] is \"bot\", not one of 'user', 'assistant'"],
    ['an icon theme that is no theme', { icons: [{ src: 'https://example.com/i.png', theme: 'blue' as 'light' }] }, "icons[0].theme is \"blue\", not one of 'light', 'dark'"],
    ['an icon without src', { icons: [{} as { src: string }] }, 'icons[0].src is missing'],
  ];

  it.each(refused)('refuses %s at build, naming the field (the client would drop the whole list)', async (_label, options, what) => {
    class Notes {
      @Resource('notes://today', options)
      today() {
        return 'today';
      }
    }
    const built = createApp({ name: 'notes', version: '1', tools: [Notes] });
    await expect(built).rejects.toThrow(BuildError);
    await expect(built).rejects.toThrow(`Notes.today: its option ${what}`);
  });

  it('refuses a prompt icon and a tool icon the same way', async () => {
    class Members {
      @Prompt({ description: 'p', icons: [{ src: 'https://example.com/p.png', theme: 'dim' as 'dark' }] })
      p() {
        return 'p';
      }
      @Tool({ description: 't', icons: [{ mimeType: 'image/png' } as unknown as { src: string }] })
      t() {
        return 't';
      }
    }
    const built = createApp({ name: 'members', version: '1', tools: [Members] });
    await expect(built).rejects.toThrow("Members.p: its option icons[0].theme is \"dim\", not one of 'light', 'dark'");
    await expect(built).rejects.toThrow('Members.t: its option icons[0].src is missing');
  });

  it('lists values within the schema through the client', async () => {
    class Notes {
      @Resource('notes://today', {
        annotations: { audience: ['user', 'assistant'], priority: 0, lastModified: '2026-01-31T09:30:00.250+02:00' },
        icons: [{ src: 'https://example.com/i.png', theme: 'dark', sizes: ['48x48'] }],
      })
      today() {
        return 'today';
      }
      @Resource('notes://{day}', { annotations: { priority: 1, lastModified: '2024-02-29T23:59:59Z' } })
      day(@Param('day') day: string) {
        return day;
      }
    }
    const client = await createTestClient(await createApp({ name: 'notes', version: '1', tools: [Notes] }), { era });
    expect((await client.listResources()).resources[0]!.annotations).toEqual({ audience: ['user', 'assistant'], priority: 0, lastModified: '2026-01-31T09:30:00.250+02:00' });
    expect((await client.listResourceTemplates()).resourceTemplates[0]!.annotations).toEqual({ priority: 1, lastModified: '2024-02-29T23:59:59Z' });
    await client.close();
  });
});

describe.each(eras)('a middleware that drops or delays next(), %s era', (era) => {
  const errors: string[] = [];
  const logger: ToolLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (message: string) => void errors.push(message) };
  let built = 0;
  let disposed = 0;
  let ran = 0;
  let late: Promise<unknown> | undefined;

  @Scoped('request')
  @Service()
  class Connection {
    constructor() {
      built++;
    }
    dispose() {
      disposed++;
    }
  }

  @Scoped('request')
  @Service()
  class Jobs {
    constructor(private readonly connection: Connection) {}

    // Runs the method without waiting for it, and answers at once.
    @UseMiddleware((_call: MemberCall, next: Next) => {
      void next();
      return 'queued';
    })
    @Tool({ description: 'Fails where its middleware does not look.' })
    fireAndForget() {
      throw new Error('the method failed after its middleware answered');
    }

    // Answers at once, and runs the method once the call has ended.
    @UseMiddleware((_call: MemberCall, next: Next) => {
      late = new Promise((resolve) => setTimeout(resolve, 20)).then(() => next());
      return 'later';
    })
    @Tool({ description: 'Runs after its call, if let.' })
    afterwards() {
      ran++;
      return this.connection ? 'ran' : 'no connection';
    }

    @Tool({ description: 'Answers.' })
    ping() {
      return 'pong';
    }
  }

  it('answers with what the middleware returned, does not end the process, and keeps serving', async () => {
    const client = await createTestClient(await createApp({ name: 'jobs', version: '1', tools: [Jobs], logger }), { era });
    expect(textOf(await client.callTool({ name: 'fire_and_forget', arguments: {} }))).toBe('queued');
    // An unhandled rejection would fail this test (jest reports it) and end a Node server's process.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(textOf(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    await client.close();
  });

  it('refuses a next() called after the middleware answered: the method does not run on the released services', async () => {
    const client = await createTestClient(await createApp({ name: 'jobs', version: '1', tools: [Jobs], logger }), { era });
    ran = 0;
    const before = { built, disposed };
    expect(textOf(await client.callTool({ name: 'afterwards', arguments: {} }))).toBe('later');
    await expect(late).rejects.toThrow("Middleware #0 (anonymous) called next() after it had answered the call of 'afterwards'");
    expect(ran).toBe(0);
    // Every request-scoped service built for the call was disposed with it; none was built after.
    expect(built - before.built).toBe(disposed - before.disposed);
    expect(textOf(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    await client.close();
  });
});

describe.each(eras)("ResourceNotFoundError's default message, %s era", (era) => {
  class Users {
    @Resource('users://{id}/profile', { description: 'A profile.' })
    profile(@Param('id') id: string) {
      throw new ResourceNotFoundError(`users://${id}/profile`);
    }
  }

  it('quotes a URI from the wire on one line, without the escape sequences it decodes to, at most 200 characters of it', async () => {
    const client = await createTestClient(await createApp({ name: 'users', version: '1', tools: [Users] }), { era });
    const uri = `users://%1B%5B2J%0Aforged%20line${'x'.repeat(500)}/profile`;
    const error = (await client.readResource({ uri }).catch((e: unknown) => e)) as { message: string; data?: { uri?: string } };
    expect(error.message).toContain('Resource not found: users://\\u001b[2J\\u000aforged line');
    // eslint-disable-next-line no-control-regex -- no control character may reach the message
    expect(error.message).not.toMatch(/[\u0000-\u001f]/);
    expect(error.message.length).toBeLessThan(300);
    expect(error.data?.uri).toBe(uri);
    await client.close();
  });
});

describe.each(eras)('a completion provider that returns values with no text, %s era', (era) => {
  const errors: string[] = [];
  const logger: ToolLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (message: string) => void errors.push(message) };
  class Trips {
    @Prompt({ description: 'Plan a trip.' })
    plan(
      @Param('days', { complete: () => [1, 2, true] as unknown as string[] }) days: string,
      @Param('city', { complete: () => ({ values: ['Lisbon', null, { name: 'Lyon' }] as unknown as string[], total: 2 }) }) city: string,
    ) {
      return `${days} days in ${city}`;
    }
  }

  it('sends numbers and booleans as their text, and answers null or an object with an internal error, logged, never "[object Object]"', async () => {
    const client = await createTestClient(await createApp({ name: 'trips', version: '1', tools: [Trips], logger }), { era });
    const complete = (name: string) => client.complete({ ref: { type: 'ref/prompt', name: 'plan' }, argument: { name, value: '' } });
    expect((await complete('days')).completion).toEqual({ values: ['1', '2', 'true'] });
    await expect(complete('city')).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("Completing Trips.plan 'city' failed with an internal error.") });
    expect(errors).toContain("the completion provider of Trips.plan 'city' returned null at position 1 of its values, not a string: return strings");
    await client.close();
  });
});

describe("a mount transform's title that is no string", () => {
  class Pings {
    @Tool({ description: 'Answers.' })
    ping() {
      return 'pong';
    }
  }

  it('is refused at build, naming the mount and the tool (the client would drop the whole tools/list)', async () => {
    const inner = await createApp({ name: 'inner', version: '1', tools: [Pings] });
    const built = createApp({ name: 'outer', version: '1', tools: [], mount: [{ app: inner, namespace: 'n', transforms: { ping: { title: 42 as unknown as string } } }] });
    await expect(built).rejects.toThrow(BuildError);
    await expect(built).rejects.toThrow("mount 'n', tool 'ping': its transform's title is number, not a string");
  });
});

describe('an argument transform that is no object', () => {
  class Echo {
    @Tool({ description: 'Echoes.' })
    echo(@Param('a') a: string) {
      return a;
    }
  }

  it.each([
    ['null', null],
    ['a string', 'x'],
  ])('(%s) is a BuildError naming the argument, not a TypeError nor a transform left out', async (_label, change) => {
    @TransformTools({ echo: { arguments: { a: change as never } } })
    class MyEcho extends Echo {}
    const built = createApp({ name: 'echo', version: '1', tools: [MyEcho] });
    await expect(built).rejects.toThrow(BuildError);
    await expect(built).rejects.toThrow(`MyEcho.echo: its transform for argument 'a' is ${change === null ? 'null' : 'string'}`);
  });
});
