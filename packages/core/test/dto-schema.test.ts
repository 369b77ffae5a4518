import { Exclude, Expose, Type } from 'class-transformer';
import { IsDate, IsDefined, IsInt, IsNumber, IsOptional, IsString, Min, Validate, ValidateIf, ValidateNested, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { hasClassValidatorMetadata, readDtoProperties } from '../src/schema/class-validator';
import type { BuildProblem } from '../src/registry/BuildProblem';
import { Property } from '../src/decorators/Property';
import type { Class } from '../src/metadata/Class';
import { dtoSchema, type DtoSchemaOptions } from '../src/schema/dtoSchema';
import type { JsonSchema } from '../src/schema/JsonSchema';
import { createSchemaContext, type SchemaContext } from '../src/schema/SchemaContext';

function derive(cls: Class, options?: DtoSchemaOptions): { schema: JsonSchema; ctx: SchemaContext; problems: BuildProblem[] } {
  const problems: BuildProblem[] = [];
  const ctx = createSchemaContext('Tools.run', problems);
  return { schema: dtoSchema(cls, ctx, options), ctx, problems };
}

class Address {
  @IsString() street!: string;
  @IsOptional() @IsString() zip?: string;
}

const addressSchema = {
  type: 'object',
  properties: { street: { type: 'string' }, zip: { type: 'string' } },
  required: ['street'],
  additionalProperties: false,
};

describe('dtoSchema: object shape', () => {
  class Order {
    @IsOptional() @IsString() note?: string;
    @IsInt() @Min(1) quantity!: number;
    @IsString() sku!: string;
  }

  it('lists properties and exactly the required ones, in declaration order, with additionalProperties false', () => {
    const { schema, problems } = derive(Order);
    expect(problems).toEqual([]);
    expect(schema).toStrictEqual({
      type: 'object',
      properties: { note: { type: 'string' }, quantity: { type: 'integer', minimum: 1 }, sku: { type: 'string' } },
      required: ['quantity', 'sku'],
      additionalProperties: false,
    });
    expect(Object.keys(schema.properties!)).toEqual(['note', 'quantity', 'sku']);
  });

  it('omits required when every property is optional', () => {
    class Filters {
      @IsOptional() @IsString() q?: string;
    }
    expect(derive(Filters).schema).toStrictEqual({ type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false });
  });

  it('includes inherited properties, base first, and the subclass decorators win', () => {
    class Base {
      @IsString() id!: string;
      @IsNumber() size!: number;
    }
    class Derived extends Base {
      @IsString() name!: string;
      @IsInt() override size: number = 0; // a redeclared field needs an initializer (TS2612)
    }
    const { schema, problems } = derive(Derived);
    expect(problems).toEqual([]);
    expect(schema.properties).toStrictEqual({ id: { type: 'string' }, size: { type: 'integer' }, name: { type: 'string' } });
    expect(schema.required).toEqual(['id', 'size', 'name']);
    // the base class is untouched
    expect(derive(Base).schema.properties).toStrictEqual({ id: { type: 'string' }, size: { type: 'number' } });
  });
});

describe('dtoSchema: nested classes', () => {
  it('inlines a nested DTO (no $ref, no $defs)', () => {
    class Customer {
      @IsString() name!: string;
      @ValidateNested() @Type(() => Address) address!: Address;
    }
    const { schema, ctx, problems } = derive(Customer);
    expect(problems).toEqual([]);
    expect(schema.properties?.address).toStrictEqual(addressSchema);
    // required although class-validator alone would skip undefined: the schema is checked first
    expect(schema.required).toEqual(['name', 'address']);
    expect(JSON.stringify(schema)).not.toContain('$ref');
    expect(ctx.defs).toEqual({});
  });

  it('derives an array of DTOs as items', () => {
    class Shipment {
      @ValidateNested({ each: true }) @Type(() => Address) stops!: Address[];
    }
    const { schema, problems } = derive(Shipment);
    expect(problems).toEqual([]);
    expect(schema.properties?.stops).toStrictEqual({ type: 'array', items: addressSchema });
  });

  it('inlines the same nested class twice when it is used twice', () => {
    class Route {
      @ValidateNested() @Type(() => Address) from!: Address;
      @ValidateNested() @Type(() => Address) to!: Address;
    }
    const { schema, ctx } = derive(Route);
    expect(schema.properties?.from).toStrictEqual(addressSchema);
    expect(schema.properties?.to).toStrictEqual(addressSchema);
    expect(ctx.defs).toEqual({});
  });

  it('puts a self-referencing class in $defs and references it; the root stays an inline object', () => {
    class TreeNode {
      @IsString() label!: string;
      @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
    }
    const { schema, ctx, problems } = derive(TreeNode);
    expect(problems).toEqual([]);
    const body = {
      type: 'object',
      properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/TreeNode' } } },
      required: ['label'],
      additionalProperties: false,
    };
    expect(schema).toStrictEqual(body);
    expect(ctx.defs).toStrictEqual({ TreeNode: body });
  });

  it('refs only the classes on the cycle; the rest are inlined', () => {
    class Comment {
      @IsString() text!: string;
      @IsOptional() @ValidateNested({ each: true }) @Type(() => Comment) replies?: Comment[];
    }
    class Thread {
      @IsString() title!: string;
      @ValidateNested() @Type(() => Comment) first!: Comment;
    }
    const { schema, ctx, problems } = derive(Thread);
    expect(problems).toEqual([]);
    expect(schema.properties?.first).toEqual({ $ref: '#/$defs/Comment' });
    expect(Object.keys(ctx.defs)).toEqual(['Comment']);
    expect(ctx.defs.Comment.properties?.replies).toEqual({ type: 'array', items: { $ref: '#/$defs/Comment' } });
  });

  it('handles mutual recursion (A -> B -> A)', () => {
    // A class declared later cannot be the annotated type (design:type would hit the TDZ),
    // so the forward reference is typed structurally and named by @Type's thunk.
    interface CompanyShape {
      name: string;
    }
    class Person {
      @IsString() name!: string;
      @IsOptional() @ValidateNested() @Type(() => Company) employer?: CompanyShape;
    }
    class Company {
      @IsString() name!: string;
      @ValidateNested({ each: true }) @Type(() => Person) staff!: Person[];
    }
    const { schema, ctx, problems } = derive(Company);
    expect(problems).toEqual([]);
    expect(schema.properties?.staff).toEqual({ type: 'array', items: { $ref: '#/$defs/Person' } });
    expect(ctx.defs.Person.properties?.employer).toEqual({ $ref: '#/$defs/Company' });
    expect(ctx.defs.Company.properties?.staff).toEqual({ type: 'array', items: { $ref: '#/$defs/Person' } });
  });

  it('gives two recursive classes with the same name distinct $defs names', () => {
    const make = (): Class => {
      class Node {
        @IsString() id!: string;
        @IsOptional() @ValidateNested() @Type(() => Node) next?: Node;
      }
      return Node;
    };
    const First = make();
    const Second = make();
    class Pair {
      @ValidateNested() @Type(() => First) a!: object;
      @ValidateNested() @Type(() => Second) b!: object;
    }
    const { schema, ctx, problems } = derive(Pair);
    expect(problems).toEqual([]);
    expect(schema.properties).toEqual({ a: { $ref: '#/$defs/Node' }, b: { $ref: '#/$defs/Node2' } });
    expect(Object.keys(ctx.defs).sort()).toEqual(['Node', 'Node2']);
    expect(ctx.defNames.get(First)).toBe('Node');
    expect(ctx.defNames.get(Second)).toBe('Node2');
  });
});

describe('dtoSchema: @Property docs', () => {
  it('records a frozen copy on the class itself, not a reference to the options', () => {
    const options: { description: string; examples: string[] } = { description: 'before', examples: ['a'] };
    class Dto {
      @Property(options) @IsString() name!: string;
    }
    options.description = 'after';
    options.examples.push('b');
    const record = Reflect.getOwnMetadata('toolwright:property', Dto) as Record<string, object>;
    expect(record).toEqual({ name: { description: 'before', examples: ['a'] } });
    expect(Object.isFrozen(record)).toBe(true);
    expect(Object.isFrozen(record.name)).toBe(true);
    expect(derive(Dto).schema.properties?.name).toEqual({ type: 'string', description: 'before', examples: ['a'] });
  });

  it('adds description, title, default, examples and deprecated to the property schema', () => {
    class Search {
      @Property({ description: 'Free-text query', title: 'Query', examples: ['tokyo'] })
      @IsString()
      query!: string;

      @Property({ description: 'Page size', default: 10, deprecated: true })
      @IsOptional()
      @IsInt()
      limit?: number;
    }
    const { schema, problems } = derive(Search);
    expect(problems).toEqual([]);
    expect(schema.properties).toStrictEqual({
      query: { type: 'string', description: 'Free-text query', title: 'Query', examples: ['tokyo'] },
      limit: { type: 'integer', description: 'Page size', default: 10, deprecated: true },
    });
    expect(schema.required).toEqual(['query']);
  });

  it('documents inherited properties, and a subclass can re-document without changing the base', () => {
    class Base {
      @Property({ description: 'base' }) @IsString() name!: string;
    }
    class Child extends Base {
      @Property({ description: 'child' }) override name: string = '';
    }
    expect(derive(Child).schema.properties?.name).toEqual({ type: 'string', description: 'child' });
    expect(derive(Base).schema.properties?.name).toEqual({ type: 'string', description: 'base' });
  });

  it('puts docs next to a nested class schema', () => {
    class Customer {
      @Property({ description: 'Where to ship' }) @ValidateNested() @Type(() => Address) address!: Address;
    }
    expect(derive(Customer).schema.properties?.address).toStrictEqual({ ...addressSchema, description: 'Where to ship' });
  });
});

describe('dtoSchema: build problems', () => {
  it('reports a DTO class without class-validator decorators', () => {
    class Plain {
      name!: string;
    }
    const { schema, problems } = derive(Plain);
    expect(schema).toEqual({ type: 'object', additionalProperties: false });
    expect(problems).toEqual([
      {
        where: 'Tools.run -> Plain',
        what: 'is used as a DTO but has no class-validator decorators, so its schema cannot be derived and class-validator rejects every value of it',
        fix: 'add class-validator decorators such as @IsString() to each property',
      },
    ]);
  });

  it('reports an undecorated nested class with the path to it', () => {
    class Inner {
      value!: string;
    }
    class Outer {
      @ValidateNested() @Type(() => Inner) inner!: Inner;
    }
    expect(derive(Outer).problems.map((p) => p.where)).toEqual(['Tools.run -> Inner']);
  });

  it('reports a property whose type cannot be known (a union reflects as Object)', () => {
    class Dto {
      @IsDefined() value!: string | number;
    }
    expect(derive(Dto).problems).toEqual([
      {
        where: 'Tools.run -> Dto.value',
        what: 'has a type that cannot be known: TypeScript reflects it as Object (a union such as `string | undefined`, an interface, a type literal, `any` or `unknown`), and no constraint states a type',
        fix: 'add a type constraint such as @IsString(), @IsInt() or @IsIn([...]), or @Type(() => X) for a class',
      },
    ]);
  });

  it('reports an array whose element type cannot be known', () => {
    class Dto {
      @IsOptional() tags?: string[];
    }
    expect(derive(Dto).problems).toEqual([
      {
        where: 'Tools.run -> Dto.tags',
        what: 'is an array, but its element type cannot be known (TypeScript emits only `Array`)',
        fix: 'add @Type(() => X) for the element class, or an `each: true` constraint such as @IsString({ each: true })',
      },
    ]);
  });

  it('reports a nested class without @ValidateNested', () => {
    class Dto {
      @IsDefined() @Type(() => Address) address!: Address;
    }
    expect(derive(Dto).problems).toEqual([
      {
        where: 'Tools.run -> Dto.address',
        what: 'holds Address, but has no @ValidateNested(), so the decorators of Address never run',
        fix: 'add @ValidateNested()',
      },
    ]);
  });

  it('reports @ValidateNested or @IsDate without @Type unless calls coerce', () => {
    class Dto {
      @ValidateNested() address!: Address;
      @IsDate() when!: Date;
    }
    const { problems } = derive(Dto);
    expect(problems).toEqual([
      {
        where: 'Tools.run -> Dto.address',
        what: 'expects an instance of Address but has no @Type(() => Address), so class-transformer leaves the JSON value as it is and validation always fails',
        fix: 'add @Type(() => Address) from class-transformer',
      },
      {
        where: 'Tools.run -> Dto.when',
        what: 'expects an instance of Date but has no @Type(() => Date), so class-transformer leaves the JSON value as it is and validation always fails',
        fix: 'add @Type(() => Date) from class-transformer',
      },
    ]);
    expect(derive(Dto, { coerce: true }).problems).toEqual([]);
    // output classes are built by the method, not by class-transformer
    expect(derive(Dto, { direction: 'output' }).problems).toEqual([]);
    expect(derive(Dto, { coerce: true }).schema.properties?.address).toStrictEqual(addressSchema);
  });

  it('reports a @Type function that depends on the value', () => {
    class Dto {
      @ValidateNested()
      @Type((opts) => ((opts!.object as { kind?: string }).kind === 'a' ? Address : Address))
      address!: Address;
    }
    const [problem] = derive(Dto).problems;
    expect(problem.where).toBe('Tools.run -> Dto.address');
    expect(problem.what).toMatch(/^its @Type\(\) function threw at startup: /);
  });

  it('reports constraints that no value can pass together', () => {
    class Dto {
      @IsString() @IsInt() value!: string;
    }
    expect(derive(Dto).problems).toEqual([expect.objectContaining({ where: 'Tools.run -> Dto.value', what: expect.stringContaining('require different types') })]);
  });

  it('reports @Property on a field without class-validator decorators', () => {
    class Dto {
      @IsString() name!: string;
      @Property({ description: 'not validated' }) note?: string;
    }
    expect(derive(Dto).problems).toEqual([expect.objectContaining({ where: 'Tools.run -> Dto.note' })]);
  });

  it('reports each problem once even when a broken class is used twice', () => {
    class Broken {
      @IsDefined() value!: unknown;
    }
    class Dto {
      @ValidateNested() @Type(() => Broken) a!: Broken;
      @ValidateNested() @Type(() => Broken) b!: Broken;
    }
    expect(derive(Dto).problems.map((p) => p.where)).toEqual(['Tools.run -> Broken.value']);
  });
});

describe('dtoSchema: options and class-transformer', () => {
  it('accepts additional converters for custom constraint kinds', () => {
    class Dto {
      @IsNumber() @Min(0) price!: number;
    }
    const { schema } = derive(Dto, { additionalConverters: { min: (c) => ({ minimum: c.args[0] as number, description: 'custom' }) } });
    expect(schema.properties?.price).toStrictEqual({ type: 'number', minimum: 0, description: 'custom' });
  });

  it('names properties by their @Expose name and leaves out @Exclude-d ones', () => {
    class Dto {
      @Expose({ name: 'first_name' }) @IsString() firstName!: string;
      @Exclude() @IsOptional() @IsString() internal?: string;
    }
    expect(derive(Dto).schema).toStrictEqual({
      type: 'object',
      properties: { first_name: { type: 'string' } },
      required: ['first_name'],
      additionalProperties: false,
    });
  });
});

describe('readDtoProperties', () => {
  @ValidatorConstraint({ name: 'isEven' })
  class IsEven implements ValidatorConstraintInterface {
    validate(value: unknown): boolean {
      return typeof value === 'number' && value % 2 === 0;
    }
  }

  it('reads each property with its constraints in neutral form', () => {
    class Dto {
      @IsOptional() @IsString({ each: true, message: 'strings only' }) tags?: string[];
      @IsDefined() @ValidateNested() @Type(() => Address) address!: Address;
      @ValidateIf(() => true) @Min(2) @Validate(IsEven) n!: number;
    }
    const props = readDtoProperties(Dto);
    expect(props.map((p) => p.name)).toEqual(['tags', 'address', 'n']);
    expect(props[0].constraints).toEqual([
      { kind: 'isString', args: [], each: true, message: 'strings only' },
      { kind: 'isOptional', args: [expect.any(Function)], each: false },
    ]);
    expect(props[1].constraints.map((c) => c.kind)).toEqual(['nestedValidation', 'isDefined']);
    expect(props[2].constraints).toEqual([
      { kind: 'isEven', args: [], each: false },
      { kind: 'min', args: [2], each: false },
      { kind: 'conditionalValidation', args: [expect.any(Function)], each: false },
    ]);
    expect(Object.isFrozen(props[2].constraints)).toBe(true);
  });

  it('tells whether a class has class-validator metadata', () => {
    class None {
      x?: string;
    }
    expect(hasClassValidatorMetadata(None)).toBe(false);
    expect(hasClassValidatorMetadata(Address)).toBe(true);
  });
});
