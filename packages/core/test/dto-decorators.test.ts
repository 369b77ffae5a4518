import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Args, buildRegistry, Tool } from '@toolwright/core';
import { compiledRegistry } from '@toolwright/core/internal';
import * as dto from '@toolwright/core/dto';
import * as ClassTransformer from 'class-transformer';
import * as ClassValidator from 'class-validator';
import { loadClassTransformerDecorator } from '../src/schema/class-transformer';
import { loadClassValidatorDecorator, type ClassValidatorDecoratorName } from '../src/schema/class-validator';

const ROOT = join(__dirname, '..', '..', '..');

/** Every decorator class-validator's entry point re-exports from its decorator files, plus registerDecorator. */
function classValidatorDecorators(): ClassValidatorDecoratorName[] {
  const dir = join(ROOT, 'node_modules', 'class-validator', 'cjs', 'decorator');
  const files = [...readFileSync(join(dir, 'decorators.js'), 'utf8').matchAll(/require\("\.\/([^"]+)"\)/g)].map((m) => m[1]);
  const names = files.flatMap((file) =>
    Object.keys(require(join(dir, file)) as object).filter((name) => /^[A-Z]/.test(name) && typeof ClassValidator[name as keyof typeof ClassValidator] === 'function'),
  );
  return [...names, 'registerDecorator'] as ClassValidatorDecoratorName[];
}

describe('@toolwright/core/dto', () => {
  it('offers every class-validator decorator, each resolving to class-validator’s own function', () => {
    const names = classValidatorDecorators();
    expect(names.length).toBeGreaterThan(100);
    for (const name of names) {
      expect([name, typeof (dto as Record<string, unknown>)[name]]).toEqual([name, 'function']);
      expect([name, loadClassValidatorDecorator(name)]).toEqual([name, ClassValidator[name]]);
    }
  });

  it("offers class-transformer's property decorators, resolving to its own functions", () => {
    for (const name of ['Type', 'Expose', 'Exclude', 'Transform'] as const) {
      expect(typeof dto[name]).toBe('function');
      expect(loadClassTransformerDecorator(name)).toBe(ClassTransformer[name]);
    }
  });

  it('records exactly what the libraries record: the same schema and the same validation', async () => {
    class FromDto {
      @dto.Property({ description: 'Who to write to.' }) @dto.IsEmail() to!: string;
      @dto.IsOptional() @dto.IsInt() @dto.Min(1) @dto.Max(5) priority?: number;
      @dto.ValidateNested({ each: true }) @dto.Type(() => Tag) @dto.ArrayMaxSize(2) tags!: Tag[];
      @dto.IsISBN() isbn!: string;
    }
    class FromLibraries {
      @dto.Property({ description: 'Who to write to.' }) @ClassValidator.IsEmail() to!: string;
      @ClassValidator.IsOptional() @ClassValidator.IsInt() @ClassValidator.Min(1) @ClassValidator.Max(5) priority?: number;
      @ClassValidator.ValidateNested({ each: true }) @ClassTransformer.Type(() => Tag) @ClassValidator.ArrayMaxSize(2) tags!: Tag[];
      @ClassValidator.IsISBN() isbn!: string;
    }
    class Tag {
      @dto.IsString() @dto.Length(1, 10) name!: string;
    }
    class Mail {
      @Tool({ description: 'Send with a DTO written with @toolwright/core/dto.' })
      viaDto(@Args() input: FromDto) {
        return input instanceof FromDto && input.tags.every((t) => t instanceof Tag) ? 'built' : 'not built';
      }

      @Tool({ description: 'Send with a DTO written with the libraries.' })
      viaLibraries(@Args() input: FromLibraries) {
        return input instanceof FromLibraries ? 'built' : 'not built';
      }
    }
    const registry = compiledRegistry(buildRegistry({ tools: [Mail] }));
    const [viaDto, viaLibraries] = ['via_dto', 'via_libraries'].map((name) => registry.tool(name)!);
    expect(viaDto.descriptor.inputSchema).toEqual(viaLibraries.descriptor.inputSchema);

    const good = { to: 'a@example.com', priority: 2, tags: [{ name: 'x' }], isbn: '978-3-16-148410-0' };
    expect(await viaDto.call(good, undefined)).toEqual({ content: [{ type: 'text', text: 'built' }] });
    expect(await viaLibraries.call(good, undefined)).toEqual({ content: [{ type: 'text', text: 'built' }] });
    // The schema rejects the first input; class-validator's own check (no schema form) the second.
    const cases = [
      {
        input: { to: 'not-an-email', tags: [{ name: '' }], isbn: '978-3-16-148410-0' },
        says: '- to: must be an email address, such as ada@example.com (got "not-an-email")\n- tags[0].name: must not be empty',
      },
      { input: { to: 'a@example.com', tags: [], isbn: '12345' }, says: '- isbn: isbn must be an ISBN' },
    ];
    for (const { input: bad, says } of cases) {
      const [fromDto, fromLibraries] = await Promise.all([viaDto.call(bad, undefined), viaLibraries.call(bad, undefined)]);
      expect(fromDto.isError).toBe(true);
      expect((fromDto.content[0] as { text: string }).text).toContain(says);
      expect(JSON.stringify(fromDto).replace('via_dto', 'via_libraries')).toBe(JSON.stringify(fromLibraries));
    }
  });
});
