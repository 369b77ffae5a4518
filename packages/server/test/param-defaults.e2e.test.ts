import 'reflect-metadata';
import { Args, BuildError, Param, Prompt, Property, Tool, type Class } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';

/** The JSON a tool without an output schema answered with, as its one text block. */
const jsonOf = (result: Record<string, unknown>): unknown => JSON.parse((result.content as { text: string }[])[0].text);

/** The BuildError createApp throws for `tools`. */
async function buildErrorOf(tools: Class[]): Promise<BuildError> {
  const error: unknown = await createApp({ name: 't', version: '1.0.0', tools }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BuildError);
  return error as BuildError;
}

describe('a @Param default must pass its own schema (refused at build)', () => {
  it('refuses each default its schema refuses, in one BuildError naming each with its reason', async () => {
    class Translator {
      @Tool({ description: 'Translates.' })
      translate(
        @Param('text') text: string,
        @Param('max', { default: 'ten' }) max: number,
        @Param('lang', { enum: ['en', 'fr'], default: 'de' }) lang: string,
        @Param('retries', { integer: true, minimum: 1, default: 0 }) retries: number,
      ) {
        return { text, max, lang, retries };
      }
    }
    const error = await buildErrorOf([Translator]);
    expect(error.problems).toEqual([
      {
        where: 'Translator.translate',
        what: `@Param('max') has the default "ten", which its own schema refuses: must be a number (got string "ten")`,
        fix: "give a default of the parameter's type that passes its rules (or leave the default out).",
      },
      {
        where: 'Translator.translate',
        what: `@Param('lang') has the default "de", which its own schema refuses: must be one of: "en", "fr" (got "de")`,
        fix: expect.any(String),
      },
      {
        where: 'Translator.translate',
        what: `@Param('retries') has the default 0, which its own schema refuses: must be at least 1`,
        fix: expect.any(String),
      },
    ]);
    expect(error.message).toMatch(/^Toolwright cannot build this app \(3 problems\):/);
    expect(error.message).toContain(`Translator.translate: @Param('max') has the default "ten", which its own schema refuses: must be a number`);
    expect(error.message).toContain(`@Param('lang') has the default "de", which its own schema refuses: must be one of`);
    expect(error.message).toContain(`@Param('retries') has the default 0, which its own schema refuses: must be at least 1`);
  });

  it('checks the other rules too: integer, length, pattern, array items, a nullable type, a DTO parameter, a raw schema', async () => {
    class Point {
      @IsInt() x!: number;
      @IsInt() y!: number;
    }
    class Odd {
      @Tool()
      run(
        @Param('whole', { integer: true, default: 1.5 }) whole: number,
        @Param('code', { minLength: 2, pattern: /^[A-Z]+$/, default: 'a' }) code: string,
        @Param('tags', { type: () => [String], maxItems: 1, default: ['a', 2] }) tags: string[],
        @Param('limit', { type: () => Number, nullable: true, default: 'none' }) limit: number | null,
        @Param('at', { default: { x: 1 } }) at: Point,
        @Param('id', { schema: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, default: true }) id: string | number,
      ) {
        return { whole, code, tags, limit, at, id };
      }
    }
    const whats = (await buildErrorOf([Odd])).problems.map((p) => p.what);
    expect(whats).toHaveLength(6);
    expect(whats[0]).toMatch(/^@Param\('whole'\) has the default 1\.5, which its own schema refuses: must be an integer/);
    expect(whats[1]).toMatch(/^@Param\('code'\) has the default "a", which its own schema refuses: .*2/);
    expect(whats[2]).toMatch(/^@Param\('tags'\) has the default \["a",2\], which its own schema refuses: /);
    expect(whats[2]).toContain('must have at most 1 item; tags[1]: must be a string (got number 2)');
    expect(whats[3]).toMatch(/^@Param\('limit'\) has the default "none", which its own schema refuses: must be a number or null/);
    expect(whats[4]).toBe(`@Param('at') has the default {"x":1}, which its own schema refuses: at.y: is required`);
    expect(whats[5]).toMatch(/^@Param\('id'\) has the default true, which its own schema refuses: /);
  });

  it('checks the defaults of prompt arguments too, as written (a string default is no number)', async () => {
    class Prompts {
      @Prompt({ description: 'Reviews.' })
      review(@Param('code') code: string, @Param('depth', { integer: true, maximum: 3, default: 5 }) depth: number, @Param('level', { integer: true, default: '2' }) level: number) {
        return `${code} ${depth} ${level}`;
      }
    }
    const error = await buildErrorOf([Prompts]);
    expect(error.problems.map((p) => [p.where, p.what])).toEqual([
      ['Prompts.review', "@Param('depth') has the default 5, which its own schema refuses: must be at most 3"],
      // A sent prompt argument is converted from its string; a default reaches the method as written.
      ['Prompts.review', `@Param('level') has the default "2", which its own schema refuses: must be an integer (got string "2")`],
    ]);
  });

  it('checks a DTO property default (@Property) against the property schema, reported at the property', async () => {
    class Search {
      @IsString() query!: string;
      @Property({ default: 100 }) @IsOptional() @IsInt() @Min(1) @Max(50) limit?: number;
      @Property({ default: 'blue' }) @IsOptional() @IsIn(['red', 'green']) color?: string;
    }
    class Searcher {
      @Tool() search(@Args() input: Search) {
        return input;
      }
    }
    const error = await buildErrorOf([Searcher]);
    expect(error.problems.map((p) => [p.where, p.what])).toEqual([
      ['Searcher.search -> Search.limit', expect.stringMatching(/^@Property has the default 100, which its own schema refuses: must be at most 50/)],
      ['Searcher.search -> Search.color', expect.stringMatching(/^@Property has the default "blue", which its own schema refuses: must be one of/)],
    ]);
    expect(error.problems[0].fix).toBe("give a default of the property's type that passes its rules (or leave the default out).");
  });

  it("checks a recursive DTO's property default against its $defs, once", async () => {
    class Tree {
      @IsString() name!: string;
      @Property({ default: { name: 1 } }) @IsOptional() @ValidateNested() @Type(() => Tree) child?: Tree;
    }
    class Good {
      @IsString() name!: string;
      @Property({ default: { name: 'leaf', child: { name: 'deeper' } } }) @IsOptional() @ValidateNested() @Type(() => Good) child?: Good;
    }
    class Trees {
      @Tool() plant(@Args() tree: Tree) {
        return tree.name;
      }
      @Tool() grow(@Args() tree: Good) {
        return tree.name;
      }
    }
    const error = await buildErrorOf([Trees]);
    expect(error.problems.map((p) => [p.where, p.what])).toEqual([
      ['Trees.plant -> Tree.child', '@Property has the default {"name":1}, which its own schema refuses: child.name: must be a string (got number 1)'],
    ]);
  });
});

describe('valid @Param defaults still build, and a real client gets them applied', () => {
  class Point {
    @IsInt() x!: number;
    @IsInt() y!: number;
  }
  class Query {
    @IsString() q!: string;
    @Property({ default: 10 }) @IsOptional() @IsInt() @Min(1) @Max(50) limit?: number;
  }
  class Fine {
    @Tool({ description: 'Defaults that keep their rules.' })
    fine(
      @Param('text') text: string,
      @Param('max', { integer: true, minimum: 1, maximum: 10, default: 10 }) max: number,
      @Param('lang', { enum: ['en', 'fr'], default: 'fr' }) lang: string,
      @Param('loud', { optional: true, default: false }) loud: boolean,
      @Param('limit', { type: () => Number, nullable: true, default: null }) limit: number | null,
      @Param('ratio', { type: () => Number, nullable: true, minimum: 0, default: 0.5 }) ratio: number | null,
      @Param('id', { schema: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, default: 7 }) id: string | number,
      @Param('tags', { type: () => [String], maxItems: 2, default: ['a'] }) tags: string[],
      @Param('at', { default: { x: 1, y: 2 } }) at: Point,
      @Param('since', { default: '2024-01-02T03:04:05.000Z' }) since: Date,
    ) {
      return { text, max, lang, loud, limit, ratio, id, tags, at: { x: at.x, y: at.y, isPoint: at instanceof Point }, since: since.toISOString() };
    }

    @Tool() query(@Args() input: Query) {
      return { q: input.q, limit: input.limit ?? null };
    }
  }

  it('builds, advertises the defaults, and fills them in for a call without those arguments', async () => {
    const app = await createApp({ name: 'fine', version: '1.0.0', tools: [Fine] });
    const client = await createTestClient(app);
    try {
      const { tools } = await client.listTools();
      const schema = tools.find((t) => t.name === 'fine')!.inputSchema as { properties: Record<string, { default?: unknown }>; required: string[] };
      expect(schema.required).toEqual(['text']);
      expect(schema.properties.max.default).toBe(10);
      expect(schema.properties.lang.default).toBe('fr');
      expect(schema.properties.limit.default).toBeNull();
      expect((tools.find((t) => t.name === 'query')!.inputSchema as { properties: Record<string, { default?: unknown }> }).properties.limit.default).toBe(10);

      const result = await client.callTool({ name: 'fine', arguments: { text: 'hi' } });
      expect(result.isError).toBeFalsy();
      expect(jsonOf(result)).toEqual({
        text: 'hi',
        max: 10,
        lang: 'fr',
        loud: false,
        limit: null,
        ratio: 0.5,
        id: 7,
        tags: ['a'],
        at: { x: 1, y: 2, isPoint: true },
        since: '2024-01-02T03:04:05.000Z',
      });
      // A sent argument still wins over the default.
      const sent = await client.callTool({ name: 'fine', arguments: { text: 'hi', max: 3, lang: 'en', limit: 4 } });
      expect(jsonOf(sent)).toMatchObject({ max: 3, lang: 'en', limit: 4 });
    } finally {
      await client.close();
    }
  });
});
