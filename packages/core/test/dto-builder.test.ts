import { Args, buildRegistry, Tool } from '@toolwright/core';
import { compiledRegistry } from '@toolwright/core/internal';
import { Expose, Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDate, IsEmail, IsInt, IsNumber, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { compileDtoBuilder } from '../src/validation/compileDtoBuilder';

class Tag {
  @IsString() name!: string;
}

class Query {
  @IsString() text!: string;
  @IsOptional() @IsInt() @Min(1) @Max(50) limit = 10;
  @IsArray() @ArrayMaxSize(3) @ValidateNested({ each: true }) @Type(() => Tag) tags!: Tag[];
  @IsOptional() @IsDate() @Type(() => Date) since?: Date;
}

class TreeNode {
  @IsInt() value!: number;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
}

class WithEmail {
  @IsEmail() email!: string;
}
class WithDecimals {
  @IsNumber({ maxDecimalPlaces: 2 }) price!: number;
}
class WithRename {
  @Expose({ name: 'first_name' }) @IsString() firstName!: string;
}
class WithTransform {
  @Transform(({ value }) => String(value).trim()) @IsString() name!: string;
}
class NestsEmail {
  @ValidateNested() @Type(() => WithEmail) contact!: WithEmail;
}

describe('compileDtoBuilder (the DTO fast path)', () => {
  it('builds instances, nested instances and dates, keeping initializer defaults', () => {
    const build = compileDtoBuilder(Query)!;
    const q = build({ text: 'hi', tags: [{ name: 'a' }, { name: 'b' }], since: '2026-01-02T03:04:05Z' }) as Query;
    expect(q).toBeInstanceOf(Query);
    expect(q.limit).toBe(10);
    expect(q.tags.map((t) => t instanceof Tag)).toEqual([true, true]);
    expect(q.since).toBeInstanceOf(Date);
    expect(q.since!.toISOString()).toBe('2026-01-02T03:04:05.000Z');
  });

  it('builds recursive classes', () => {
    const tree = compileDtoBuilder(TreeNode)!({ value: 1, children: [{ value: 2, children: [{ value: 3 }] }] }) as TreeNode;
    expect(tree.children![0]).toBeInstanceOf(TreeNode);
    expect(tree.children![0].children![0].value).toBe(3);
  });

  it.each([
    ['a format validator (@IsEmail)', WithEmail],
    ['a number option the schema cannot express', WithDecimals],
    ['an @Expose rename', WithRename],
    ['a @Transform', WithTransform],
    ['a nested class that needs class-validator', NestsEmail],
  ])('leaves DTOs with %s to class-transformer and class-validator', (_what, cls) => {
    expect(compileDtoBuilder(cls)).toBeUndefined();
  });

  it('still runs class-validator for constraints beyond the schema', async () => {
    class PriceTools {
      @Tool() setPrice(@Args() input: WithDecimals) {
        return input.price;
      }
    }
    const tool = compiledRegistry(buildRegistry({ tools: [PriceTools] })).tools[0];
    expect(await tool.call({ price: 1.5 }, undefined)).toEqual({ content: [{ type: 'text', text: '1.5' }] });
    const bad = await tool.call({ price: 1.234 }, undefined);
    expect(bad.isError).toBe(true);
    expect(bad.content[0]).toEqual({ type: 'text', text: expect.stringContaining('- price: price must be a number conforming to the specified constraints') });
  });

  it('gives fast-path tools the same instances and errors', async () => {
    class QueryTools {
      @Tool() search(@Args() q: Query) {
        return { isQuery: q instanceof Query, tag: q.tags[0] instanceof Tag, limit: q.limit };
      }
    }
    const tool = compiledRegistry(buildRegistry({ tools: [QueryTools] })).tools[0];
    const ok = await tool.call({ text: 'x', tags: [{ name: 'a' }] }, undefined);
    expect(JSON.parse((ok.content[0] as { text: string }).text)).toEqual({ isQuery: true, tag: true, limit: 10 });
    const bad = await tool.call({ text: 'x', tags: [{ name: 1 }, {}, {}, {}], limit: 0 }, undefined);
    expect((bad.content[0] as { text: string }).text.split('\n').slice(1)).toEqual([
      '- limit: must be at least 1',
      '- tags: must have at most 3 items',
      '- tags[0].name: must be a string (got number 1)',
      '- tags[1].name: is required',
      '- tags[2].name: is required',
      '- tags[3].name: is required',
    ]);
  });
});
