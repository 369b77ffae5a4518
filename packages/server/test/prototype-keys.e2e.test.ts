import 'reflect-metadata';
import { Args, Param, Tool } from '@toolwright/core';
import { IsNumber, IsObject, IsOptional, IsString, ValidateNested, Type } from '@toolwright/core/dto';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';

/**
 * `__proto__`, `constructor` and `prototype` keys, sent as JSON text so `__proto__` is an own
 * key, through a real client in both eras: no prototype gains a property, no instance gets an
 * undeclared one, and a refusal names the field. (The 2026-07-28 request parsing drops a
 * top-level `__proto__` before the tool sees it; 2025-11-25 passes it on and it is refused.)
 */
class Child {
  @IsString() name!: string;
}
class Parent {
  @IsString() id!: string;
  @ValidateNested() @Type(() => Child) child!: Child;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Child) kids?: Child[];
}
/** `maxDecimalPlaces` keeps this DTO off the fast path: plainToInstance and class-validator run. */
class SlowChild {
  @IsString() name!: string;
  @IsOptional() @IsNumber({ maxDecimalPlaces: 2 }) n?: number;
}
class Slow {
  @IsString() id!: string;
  @ValidateNested() @Type(() => SlowChild) child!: SlowChild;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => SlowChild) kids?: SlowChild[];
}
class Bag {
  @IsObject() meta!: Record<string, unknown>;
}

const received: unknown[] = [];
class Tools {
  @Tool({ description: 'Params.' })
  params(@Param('a') a: string, @Param('o', { schema: { type: 'object' } }) o: unknown) {
    received.push(o);
    return 'ok';
  }
  @Tool({ description: 'A DTO on the fast path.' })
  fast(@Args() input: Parent) {
    received.push(input);
    return 'ok';
  }
  @Tool({ description: 'A DTO through class-transformer and class-validator.' })
  slow(@Args() input: Slow) {
    received.push(input);
    return 'ok';
  }
  @Tool({ description: 'A free-form record.' })
  bag(@Args() input: Bag) {
    received.push(input);
    return 'ok';
  }
}

const INJECTED = ['{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"prototype":{"polluted":1}}'];
const BASES = {
  params: ['{"a":"x","o":{}}', ['', 'o']],
  fast: ['{"id":"x","child":{"name":"c"},"kids":[{"name":"k"}]}', ['', 'child', 'kids[0]']],
  slow: ['{"id":"x","child":{"name":"c"},"kids":[{"name":"k"}]}', ['', 'child', 'kids[0]']],
  bag: ['{"meta":{"q":1}}', ['', 'meta']],
} as const;

/** The JSON text of `base` with `injected`'s key added to the object at `at` ('' is the top level). */
function inject(base: string, at: string, injected: string): string {
  const key = injected.slice(1, -1);
  const marker = at === '' ? base.indexOf('{') : at === 'kids[0]' ? base.indexOf('{', base.indexOf('"kids"')) : base.indexOf('{', base.indexOf(`"${at}"`));
  const empty = base[marker + 1] === '}';
  return `${base.slice(0, marker + 1)}${key}${empty ? '' : ','}${base.slice(marker + 1)}`;
}

const cases = Object.entries(BASES).flatMap(([tool, [base, places]]) => places.flatMap((at) => INJECTED.map((injected) => [tool, inject(base, at, injected), at] as const)));
const keysOf = (o: object) => Reflect.ownKeys(o).map(String).sort();
const watched = [Object.prototype, Object, Function.prototype, Array.prototype, Parent.prototype, Child.prototype, Slow.prototype, SlowChild.prototype, Bag.prototype];
const before = watched.map(keysOf);

let app: App;
beforeAll(async () => {
  app = await createApp({ name: 'prototype-keys', version: '1.0.0', tools: [Tools] });
});

describe.each(['2025-11-25', '2026-07-28'] as const)('%s', (protocol) => {
  test.each(cases)('%s %s', async (tool, text, at) => {
    const client = await createTestClient(app, { protocol });
    try {
      received.length = 0;
      const result = (await client.callTool({ name: tool, arguments: JSON.parse(text) as Record<string, unknown> })) as { isError?: boolean; content: { text: string }[] };
      expect(watched.map(keysOf)).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const sent = JSON.parse(text) as Record<string, Record<string, unknown>>;
      if (result.isError) {
        const key = ['__proto__', 'constructor', 'prototype'].find((k) => text.includes(`"${k}"`))!;
        expect(result.content[0].text).toBe(`Invalid arguments for tool '${tool}':\n- ${at === '' ? key : `${at}.${key}`}: is not allowed (unknown property)`);
        expect(received).toEqual([]);
        return;
      }
      // Accepted only where the schema takes any key (an untyped object), or for a top-level __proto__ the 2026 era dropped.
      const dropped = at === '' && protocol === '2026-07-28' && text.includes('__proto__');
      expect(dropped || ((tool === 'params' || tool === 'bag') && at !== '')).toBe(true);
      const value = received[0] as Record<string, unknown>;
      expect(value.polluted).toBeUndefined();
      if (tool === 'fast' || tool === 'slow') {
        expect(keysOf(value)).toEqual(['child', 'id', 'kids']);
        expect(Object.getPrototypeOf(value)).toBe(tool === 'fast' ? Parent.prototype : Slow.prototype);
        expect(Object.getPrototypeOf(value.child)).toBe(tool === 'fast' ? Child.prototype : SlowChild.prototype);
        return;
      }
      // An untyped object arrives as sent: the key stays an own data property, never a prototype.
      const record = (tool === 'params' ? value : value.meta) as Record<string, unknown>;
      const expected = tool === 'params' ? sent.o : sent.meta;
      if (tool === 'bag') expect(keysOf(value)).toEqual(['meta']);
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
      expect(keysOf(record)).toEqual(keysOf(expected));
      expect(record.polluted).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});
