import { Args, buildRegistry, Tool, type JsonSchema } from '@toolwright/core';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import fc from 'fast-check';
import { compileDtoBuilder } from '../src/validation/compileDtoBuilder';
import { compileSchemaValidator } from '../src/validation/compileSchemaValidator';
import { compileDtoValidator } from '../src/validation/validateDto';

/**
 * Issue 13: the DTO fast path (compiled schema check + hand-built instances) against
 * class-transformer + class-validator on generated inputs. Whatever the schema accepts,
 * the libraries accept and build into the same instances (same classes, same fields);
 * whatever the libraries refuse, the schema refuses (null for an @IsOptional() property
 * is the one value the schema refuses and class-validator accepts).
 */

class Tag {
  @IsString() @MinLength(1) @MaxLength(4) name!: string;
  @IsOptional() @IsInt() @Min(0) @Max(9) weight?: number;
}
class Circle {
  @IsNumber() @Min(0) radius!: number;
}
class Square {
  @IsInt() side!: number;
  @IsOptional() @IsBoolean() filled?: boolean;
}
const SHAPES = {
  discriminator: {
    property: 'kind',
    subTypes: [
      { name: 'circle', value: Circle },
      { name: 'square', value: Square },
    ],
  },
};

class Order {
  @IsString() @MaxLength(6) id!: string;
  @IsIn(['low', 'high']) priority!: string;
  @IsOptional() @IsInt() @Min(1) @Max(5) count = 1;
  @IsDefined() @ValidateNested() @Type(() => Tag) tag!: Tag;
  @IsOptional() @IsArray() @ArrayMaxSize(2) @ValidateNested({ each: true }) @Type(() => Tag) more?: Tag[];
  @IsDefined() @ValidateNested() @Type(() => Object, SHAPES) shape!: Circle | Square;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Object, SHAPES) shapes?: (Circle | Square)[];
}

class Tools {
  @Tool() order(@Args() input: Order) {
    return input;
  }
}

const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -2, max: 12 }),
  fc.constantFrom(0.5, -1, 3),
  fc.string({ maxLength: 7 }),
  fc.constantFrom('low', 'high', 'circle', 'square'),
);
/** Mostly the valid value, sometimes anything: about a third of the orders are valid. */
const mostly = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 8, arbitrary: valid }, { weight: 1, arbitrary: scalar });
const tag = fc.record({ name: mostly(fc.string({ minLength: 1, maxLength: 4 })), weight: mostly(fc.integer({ min: 0, max: 9 })), junk: scalar }, { requiredKeys: ['name'] }).map((t) => {
  if (Math.abs(JSON.stringify(t).length) % 5 !== 0) delete (t as Record<string, unknown>).junk;
  return t;
});
const shape = fc.oneof(
  fc.record({ kind: fc.constant('circle'), radius: mostly(fc.integer({ min: 0, max: 3 })) }),
  fc.record({ kind: fc.constant('square'), side: mostly(fc.integer({ min: 0, max: 3 })), filled: mostly(fc.boolean()) }, { requiredKeys: ['kind', 'side'] }),
  fc.record({ kind: fc.constantFrom('circle', 'square', 'other'), radius: scalar, side: scalar }, { requiredKeys: ['kind'] }),
  { arbitrary: fc.record({ kind: fc.constant('circle'), radius: fc.integer({ min: 0, max: 3 }) }), weight: 3 },
);
const order = fc.record(
  {
    id: mostly(fc.string({ maxLength: 6 })),
    priority: mostly(fc.constantFrom('low', 'high')),
    count: mostly(fc.integer({ min: 1, max: 5 })),
    tag: mostly(tag),
    more: mostly(fc.array(mostly(tag), { maxLength: 2 })),
    shape: mostly(shape),
    shapes: mostly(fc.array(mostly(shape), { maxLength: 3 })),
  },
  { requiredKeys: ['id', 'priority', 'tag', 'shape'] },
);

describe('issue 13: the DTO fast path agrees with class-transformer + class-validator', () => {
  const schema = buildRegistry({ tools: [Tools] }).tool('order')!.descriptor.inputSchema as JsonSchema;
  const check = compileSchemaValidator(schema);
  const build = compileDtoBuilder(Order);
  const libraries = compileDtoValidator(Order, { coerce: false });

  it('takes the fast path for this DTO (discriminated unions included)', () => {
    expect(build).toBeDefined();
  });

  it('accepts, refuses and builds exactly as the libraries do', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(order, async (input) => {
        const checked = check(input);
        // class-transformer deletes the discriminator from the object it is given: hand it a copy (JSON, not structuredClone: under jest that returns objects of another realm).
        // class-transformer throws on some inputs the schema refuses first (a null among discriminated elements): a refusal.
        const slow = await libraries(JSON.parse(JSON.stringify(input))).catch(() => ({ ok: false as const, issues: [] }));
        if (checked.ok) {
          accepted++;
          expect({ input, libraries: slow.ok && true, issues: slow.ok ? [] : slow.issues }).toEqual({ input, libraries: true, issues: [] });
          expect(build!(checked.value as Record<string, unknown>)).toStrictEqual(slow.ok && slow.value);
        } else if (slow.ok) {
          // The one deliberate difference: class-validator's @IsOptional() lets null through; the schema does not.
          expect({ input, issues: checked.issues.filter((i) => !i.message.endsWith('(got null)')) }).toEqual({ input, issues: [] });
        }
      }),
      { numRuns: 1500 },
    );
    expect(accepted).toBeGreaterThan(100); // the generator reaches valid orders, not only refusals
  });
});
