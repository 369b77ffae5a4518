import { Type } from 'class-transformer';
import { IsNumber, IsOptional, IsString, ValidateNested } from 'class-validator';
import type { BuildProblem } from '../src/registry/BuildProblem';
import type { Class } from '../src/metadata/Class';
import { dtoSchema, type DtoSchemaOptions } from '../src/schema/dtoSchema';
import type { JsonSchema } from '../src/schema/JsonSchema';
import { createSchemaContext } from '../src/schema/SchemaContext';
import { compileSchemaValidator } from '../src/validation/compileSchemaValidator';
import type { ValidationOutcome } from '../src/validation/ValidationIssue';

/** The root schema as a tool serves it (with `$defs`), and a validator compiled from it. */
function derive(cls: Class, options?: DtoSchemaOptions): { schema: JsonSchema; defs: Record<string, JsonSchema>; validate: (value: unknown) => ValidationOutcome; problems: BuildProblem[] } {
  const problems: BuildProblem[] = [];
  const ctx = createSchemaContext('Tools.run', problems);
  const schema = dtoSchema(cls, ctx, options);
  const served = Object.keys(ctx.defs).length > 0 ? { ...schema, $defs: ctx.defs } : schema;
  return { schema, defs: ctx.defs, validate: compileSchemaValidator(served), problems };
}

const issuesOf = (outcome: ValidationOutcome): string[] => (outcome.ok ? [] : outcome.issues.map((i) => `${i.path}: ${i.message}`));

class Leaf {
  @IsNumber() v!: number;
}
class TreeNode {
  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => Object, {
    discriminator: {
      property: 'kind',
      subTypes: [
        { name: 'leaf', value: Leaf },
        { name: 'node', value: TreeNode },
      ],
    },
  })
  children?: (Leaf | TreeNode)[];
}

const leafBranch = { type: 'object', properties: { v: { type: 'number' }, kind: { const: 'leaf' } }, required: ['v', 'kind'], additionalProperties: false };
const children = { type: 'array', items: { oneOf: [leafBranch, { $ref: '#/$defs/TreeNode.node' }] } };

describe('dtoSchema: a class that is a branch of its own discriminated union', () => {
  it.each(['input', 'output'] as const)('refers to its tagged schema in $defs, which is complete (%s)', (direction) => {
    const { schema, defs, problems } = derive(TreeNode, { direction });
    expect(problems).toEqual([]);
    expect(schema).toStrictEqual({ type: 'object', properties: { children }, additionalProperties: false });
    // The tagged class, not an empty placeholder: its own children, the tag, no other property.
    expect(defs).toStrictEqual({
      'TreeNode.node': { type: 'object', properties: { children, kind: { const: 'node' } }, required: ['kind'], additionalProperties: false },
    });
  });

  it('refuses a bad value at any depth, naming the field, and accepts a good tree', () => {
    const { validate } = derive(TreeNode);
    expect(issuesOf(validate({ children: [{ kind: 'node', bogus: 1, children: [{ kind: 'leaf', v: 'x' }] }] }))).toEqual([
      'children[0].children[0].v: must be a number (got string "x")',
      'children[0].bogus: is not allowed (unknown property)',
    ]);
    expect(issuesOf(validate({ children: [{ kind: 'node', children: [{ kind: 'node', children: [{ kind: 'twig' }] }] }] }))).toEqual([
      'children[0].children[0].children[0].kind: must be one of: "leaf", "node" (got "twig")',
    ]);
    expect(
      issuesOf(
        validate({
          children: [
            { kind: 'leaf', v: 1 },
            { kind: 'node', children: [{ kind: 'node' }, { kind: 'leaf', v: 2 }] },
          ],
        }),
      ),
    ).toEqual([]);
  });

  it('does the same inside a Map of the union', () => {
    class Forest {
      @ValidateNested({ each: true })
      @Type(() => Object, {
        discriminator: {
          property: 'kind',
          subTypes: [
            { name: 'leaf', value: Leaf },
            { name: 'node', value: TreeNode },
          ],
        },
      })
      trees!: Map<string, Leaf | TreeNode>;
    }
    const { schema, defs, validate, problems } = derive(Forest);
    expect(problems).toEqual([]);
    expect(schema.properties?.trees).toStrictEqual({ type: 'object', additionalProperties: { oneOf: [leafBranch, { $ref: '#/$defs/TreeNode.node' }] } });
    expect(defs['TreeNode.node'].properties?.children).toStrictEqual(children);
    expect(issuesOf(validate({ trees: { oak: { kind: 'node', children: [{ kind: 'node', children: [{ kind: 'leaf', v: 'x' }] }] } } }))).toEqual([
      'trees.oak.children[0].children[0].v: must be a number (got string "x")',
    ]);
  });
});

describe('dtoSchema: a discriminated branch on a cycle of two classes', () => {
  class Weight {
    @IsNumber() grams!: number;
  }
  interface SectionShape {
    title: string;
  }
  class Part {
    @IsString() label!: string;
    @IsOptional() @ValidateNested({ each: true }) @Type(() => Section) inside?: SectionShape[];
  }
  class Section {
    @IsString() title!: string;
    @ValidateNested()
    @Type(() => Object, {
      discriminator: {
        property: 'is',
        subTypes: [
          { name: 'part', value: Part },
          { name: 'weight', value: Weight },
        ],
      },
    })
    first!: Part | Weight;
  }

  const weightBranch = { type: 'object', properties: { grams: { type: 'number' }, is: { const: 'weight' } }, required: ['grams', 'is'], additionalProperties: false };
  const inside = { type: 'array', items: { $ref: '#/$defs/Section' } };

  it('from the class the branch names: the branch is a $ref to its tagged schema', () => {
    const { schema, defs, validate, problems } = derive(Part);
    expect(problems).toEqual([]);
    expect(schema).toStrictEqual({ type: 'object', properties: { label: { type: 'string' }, inside }, required: ['label'], additionalProperties: false });
    expect(defs).toStrictEqual({
      Section: {
        type: 'object',
        properties: { title: { type: 'string' }, first: { oneOf: [{ $ref: '#/$defs/Part.part' }, weightBranch] } },
        required: ['title', 'first'],
        additionalProperties: false,
      },
      'Part.part': { type: 'object', properties: { label: { type: 'string' }, inside, is: { const: 'part' } }, required: ['label', 'is'], additionalProperties: false },
    });
    const nested = (first: object) => ({ label: 'p', inside: [{ title: 's', first: { is: 'part', label: 'q', inside: [{ title: 't', first }] } }] });
    expect(issuesOf(validate(nested({ is: 'part', label: 7, extra: true })))).toEqual([
      'inside[0].first.inside[0].first.label: must be a string (got number 7)',
      'inside[0].first.inside[0].first.extra: is not allowed (unknown property)',
    ]);
    expect(issuesOf(validate(nested({ is: 'weight', grams: 2 })))).toEqual([]);
  });

  it('from the other class of the cycle: the same two definitions', () => {
    const { schema, defs, problems } = derive(Section);
    expect(problems).toEqual([]);
    expect(schema.properties?.first).toStrictEqual({ oneOf: [{ $ref: '#/$defs/Part.part' }, weightBranch] });
    expect(Object.keys(defs).sort()).toEqual(['Part.part', 'Section']);
  });

  it('through discriminators alone', () => {
    // A discriminator names its classes directly, so one of two classes that name each other gets its subtype once both exist.
    const cellTypes: { name: string; value: Class }[] = [{ name: 'weight', value: Weight }];
    class Cell {
      @ValidateNested({ each: true }) @Type(() => Object, { discriminator: { property: 'is', subTypes: cellTypes } }) items!: object[];
    }
    class Row {
      @IsString() name!: string;
      @ValidateNested() @Type(() => Object, { discriminator: { property: 'is', subTypes: [{ name: 'cell', value: Cell }] } }) cell!: Cell;
    }
    cellTypes.push({ name: 'row', value: Row });
    const { schema, defs, validate, problems } = derive(Cell);
    expect(problems).toEqual([]);
    expect(schema.properties?.items).toStrictEqual({ type: 'array', items: { oneOf: [weightBranch, { $ref: '#/$defs/Row.row' }] } });
    expect(defs['Row.row'].properties?.cell).toStrictEqual({ oneOf: [{ $ref: '#/$defs/Cell.cell' }] });
    expect(defs['Cell.cell'].properties?.items).toStrictEqual(schema.properties?.items);
    expect(issuesOf(validate({ items: [{ is: 'row', name: 'r', cell: { is: 'cell', items: [{ is: 'weight', grams: '1' }] } }] }))).toEqual([
      'items[0].cell.items[0].grams: must be a number (got string "1")',
    ]);
    expect(issuesOf(validate({ items: [{ is: 'row', name: 'r', cell: { is: 'cell', items: [{ is: 'weight', grams: 1 }] } }] }))).toEqual([]);
  });
});

describe('dtoSchema: $defs names', () => {
  it('gives a recursive class named __proto__ an own $defs entry (regression: the name set the prototype of $defs)', () => {
    const make = (): Class => {
      class Chain {
        @IsOptional() @ValidateNested() @Type(() => Chain) next?: object;
      }
      Object.defineProperty(Chain, 'name', { value: '__proto__' });
      return Chain;
    };
    const { schema, defs, validate, problems } = derive(make());
    expect(problems).toEqual([]);
    expect(schema.properties?.next).toEqual({ $ref: '#/$defs/_proto_' });
    expect(Object.getPrototypeOf(defs)).toBe(Object.prototype);
    expect(Object.keys(defs)).toEqual(['_proto_']);
    expect(issuesOf(validate({ next: { next: { more: 1 } } }))).toEqual(['next.next.more: is not allowed (unknown property)']);
  });
});
