import 'reflect-metadata';
import { Args, Ctx, Tool, type Class, type ToolContext } from '@toolwright/core';
import { Expose, IsEmail, IsOptional, IsString, Type, ValidateNested } from '@toolwright/core/dto';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';

/**
 * DTO properties named after members of every object (`constructor`, `toString`,
 * `hasOwnProperty`, `valueOf`) and `__proto__`, in elicitation forms and tool arguments, through
 * the SDK v2 client. They are read from the client's own keys and set on the instance like any
 * other; a class that would need class-validator for them, or that declares `__proto__`, is
 * refused when it is built, naming the class and the property. Before: a form with such a
 * property failed every answer with an internal error (class-validator's TypeError); a tool
 * got Object.prototype's members as values the client never sent; a `__proto__` property was
 * dropped from the schema and replaced the instance's prototype.
 */
/**
 * Decorates the properties `names` of `cls` by hand: a class cannot declare a field named
 * `constructor`, and TypeScript lets no `toString: string` stand where an Object goes.
 */
function declare(cls: Class, names: readonly string[], ...decorators: PropertyDecorator[]): void {
  for (const name of names) for (const decorate of decorators) decorate(cls.prototype as object, name);
}

class Profile {
  @IsString() name!: string;
}
declare(Profile, ['constructor', 'toString', 'hasOwnProperty', 'valueOf'], IsOptional(), IsString());

class WithProto {
  @IsString() name!: string;
}
declare(WithProto, ['__proto__'], IsOptional(), IsString());

class ExposedAsProto {
  @IsOptional() @IsString() @Expose({ name: '__proto__' }) parent?: string;
}

class Mailbox {}
declare(Mailbox, ['toString'], IsOptional(), IsEmail());

/** The value's own properties, as JSON text (which leaves out those undefined): what the tool got, and nothing it inherits. */
const own = (value: object) => JSON.stringify(Object.fromEntries(Object.getOwnPropertyNames(value).map((key) => [key, (value as Record<string, unknown>)[key]])));
const ownOf = (result: Awaited<ReturnType<Awaited<ReturnType<typeof createTestClient>>['callTool']>>) => {
  const t = (result.content as { text: string }[])[0].text;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return t;
  }
};
const seen: object[] = [];

class Members {
  @Tool({ description: 'Asks for a profile.' })
  async ask(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Your profile?', Profile);
    if (answer.action !== 'accept') return answer.action;
    seen.push(answer.content);
    return own(answer.content);
  }

  @Tool({ description: 'Takes a profile.' })
  take(@Args() profile: Profile) {
    seen.push(profile);
    return own(profile);
  }
}

class AsksMailbox {
  @Tool({ description: 'Asks for a mailbox.' })
  async mailbox(@Ctx() ctx: ToolContext) {
    return (await ctx.elicit('Mailbox?', Mailbox)).action;
  }
}

const ALL = { name: 'Ada', constructor: 'c', toString: 't', hasOwnProperty: 'h', valueOf: 'v' };

describe('DTO properties named after members of every object', () => {
  let answer: Record<string, unknown> = ALL;

  it('an elicitation form asks for them, and reads the answer from its own keys', async () => {
    const app = await createApp({ name: 'members', version: '1', tools: [Members] });
    const client = await createTestClient(app, { elicitation: () => ({ action: 'accept', content: answer as never }) });
    try {
      expect(ownOf(await client.callTool({ name: 'ask', arguments: {} }))).toEqual(ALL);
      expect(seen.at(-1)).toBeInstanceOf(Profile);
      answer = { name: 'Ada' };
      expect(ownOf(await client.callTool({ name: 'ask', arguments: {} }))).toEqual({ name: 'Ada' });
      expect(Object.getOwnPropertyNames(seen.at(-1)!)).toEqual(['name']);
      answer = { name: 'Ada', toString: 5 };
      expect(await client.callTool({ name: 'ask', arguments: {} })).toEqual({
        content: [{ type: 'text', text: "The user's answer does not fit the form:\n- toString: must be a string (got number 5)" }],
        isError: true,
      });
    } finally {
      await client.close();
    }
  });

  it('a tool takes them as arguments, and never gets members the client did not send', async () => {
    const app = await createApp({ name: 'members', version: '1', tools: [Members] });
    const client = await createTestClient(app);
    try {
      expect(ownOf(await client.callTool({ name: 'take', arguments: ALL }))).toEqual(ALL);
      const result = await client.callTool({ name: 'take', arguments: { name: 'Ada' } });
      expect(ownOf(result)).toEqual({ name: 'Ada' });
      const profile = seen.at(-1)!;
      expect(profile).toBeInstanceOf(Profile);
      expect(Object.getOwnPropertyNames(profile)).toEqual(['name']);
      expect(({} as Record<string, unknown>).name).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('a __proto__ property, declared or as an input name, is refused at startup naming the class and property', async () => {
    class TakesProto {
      @Tool({ description: 'Takes it.' })
      proto(@Args() input: WithProto) {
        return Object.getPrototypeOf(input) === WithProto.prototype;
      }
    }
    class TakesExposed {
      @Tool({ description: 'Takes it.' })
      exposed(@Args() input: ExposedAsProto) {
        return input.parent;
      }
    }
    await expect(createApp({ name: 'p', version: '1', tools: [TakesProto] })).rejects.toThrow(
      "TakesProto.proto -> WithProto.__proto__: takes the input key '__proto__', which JSON parsers and the MCP SDK drop, so no value could ever arrive\n     Fix: rename the property (or its @Expose name).",
    );
    await expect(createApp({ name: 'p', version: '1', tools: [TakesExposed] })).rejects.toThrow("TakesExposed.exposed -> ExposedAsProto.parent: takes the input key '__proto__'");
  });

  it('a class that needs class-validator for such a property is refused: a tool at startup, a form at the ask', async () => {
    class TakesMailbox {
      @Tool({ description: 'Takes it.' })
      mailbox(@Args() input: Mailbox) {
        return input;
      }
    }
    class Contact {
      @IsEmail() email!: string;
      @ValidateNested() @Type(() => Profile) profile!: Profile;
    }
    class TakesContact {
      @Tool({ description: 'Takes it.' })
      contact(@Args() input: Contact) {
        return input.email;
      }
    }
    // Profile alone is built without the libraries; nested in a class that needs them, it is not.
    await expect(createApp({ name: 'm', version: '1', tools: [TakesContact] })).rejects.toThrow('Profile.toString: is named after a member of every object');
    await expect(createApp({ name: 'm', version: '1', tools: [TakesMailbox] })).rejects.toThrow(
      'TakesMailbox.mailbox -> Mailbox.toString: is named after a member of every object (Object.prototype.toString), which class-validator and class-transformer cannot validate or copy\n     Fix: rename the property',
    );
    const logged: unknown[] = [];
    const app = await createApp({ name: 'm', version: '1', tools: [AsksMailbox], logger: { debug() {}, info() {}, warn() {}, error: (...args: unknown[]) => logged.push(...args) } });
    const client = await createTestClient(app, { elicitation: () => ({ action: 'accept', content: { toString: 'a@b.co' } }) });
    try {
      const result = await client.callTool({ name: 'mailbox', arguments: {} });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).not.toMatch(/TypeError|grouped/);
      // The server's log says which class and property, and what to do.
      expect(logged.map(String).join('\n')).toContain('Mailbox.toString: is named after a member of every object (Object.prototype.toString)');
      expect(await client.ping()).toEqual({});
    } finally {
      await client.close();
    }
  });
});
