/**
 * The served schema of recursive DTOs, pinned as JSON text (key order included): users snapshot
 * served schemas (`toolwright schema snapshot/diff`), so a change in `$defs` order or names, or a
 * branch that moves to `$defs`, reads as a breaking change. The texts are those served before
 * discriminated branches on a cycle went to `$defs`, which left these DTOs alone.
 */
import { Type } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, IsString, ValidateNested } from 'class-validator';
import type { Class } from '../src/metadata/Class';
import type { BuildProblem } from '../src/registry/BuildProblem';
import { dtoSchema } from '../src/schema/dtoSchema';
import type { JsonSchema } from '../src/schema/JsonSchema';
import { createSchemaContext } from '../src/schema/SchemaContext';
import { compileSchemaValidator } from '../src/validation/compileSchemaValidator';

/** The root schema as a tool serves it, with `$defs` last. */
function served(cls: Class, direction: 'input' | 'output'): JsonSchema {
  const problems: BuildProblem[] = [];
  const ctx = createSchemaContext('Tools.run', problems);
  const schema = dtoSchema(cls, ctx, { direction });
  expect(problems).toEqual([]);
  return Object.keys(ctx.defs).length > 0 ? { ...schema, $defs: ctx.defs } : schema;
}

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

/** A linked list's node; each call makes another class of the same name. */
const makeNode = (): Class => {
  class Node {
    @IsString() id!: string;
    @IsOptional() @ValidateNested() @Type(() => Node) next?: Node;
  }
  return Node;
};
const OtherNode = makeNode();
class RootCycle {
  @IsString() id!: string;
  @ValidateNested() @Type(() => OtherNode) other!: object;
  @IsOptional() @ValidateNested() @Type(() => Hub) hub?: object;
}
class Hub {
  @IsOptional() @ValidateNested() @Type(() => RootCycle) back?: object;
  @IsInt() n!: number;
}

// A root on a cycle, named like another recursive class of its graph: the root keeps `Node`.
const InnerNode = makeNode();
const RootNode = (() => {
  class Node {
    @ValidateNested() @Type(() => InnerNode) inner!: object;
    @IsOptional() @ValidateNested() @Type(() => Back) back?: object;
  }
  class Back {
    @ValidateNested() @Type(() => Node) root!: object;
  }
  return Node;
})();

// A recursive class as a branch of a union it is not on a cycle with: the branch is inlined.
class LinkedItem {
  @IsString() id!: string;
  @IsOptional() @ValidateNested() @Type(() => LinkedItem) next?: LinkedItem;
}
class Other {
  @IsNumber() x!: number;
}
class Holder {
  @ValidateNested()
  @Type(() => Object, {
    discriminator: {
      property: 'kind',
      subTypes: [
        { name: 'linked', value: LinkedItem },
        { name: 'other', value: Other },
      ],
    },
  })
  item!: LinkedItem | Other;
}

const CompanyServed: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, staff: { type: 'array', items: { $ref: '#/$defs/Person' } } },
  required: ['name', 'staff'],
  additionalProperties: false,
  $defs: {
    Company: { type: 'object', properties: { name: { type: 'string' }, staff: { type: 'array', items: { $ref: '#/$defs/Person' } } }, required: ['name', 'staff'], additionalProperties: false },
    Person: { type: 'object', properties: { name: { type: 'string' }, employer: { $ref: '#/$defs/Company' } }, required: ['name'], additionalProperties: false },
  },
};
const PersonServed: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, employer: { $ref: '#/$defs/Company' } },
  required: ['name'],
  additionalProperties: false,
  $defs: {
    Person: { type: 'object', properties: { name: { type: 'string' }, employer: { $ref: '#/$defs/Company' } }, required: ['name'], additionalProperties: false },
    Company: { type: 'object', properties: { name: { type: 'string' }, staff: { type: 'array', items: { $ref: '#/$defs/Person' } } }, required: ['name', 'staff'], additionalProperties: false },
  },
};
const RootCycleServed: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, other: { $ref: '#/$defs/Node' }, hub: { $ref: '#/$defs/Hub' } },
  required: ['id', 'other'],
  additionalProperties: false,
  $defs: {
    RootCycle: { type: 'object', properties: { id: { type: 'string' }, other: { $ref: '#/$defs/Node' }, hub: { $ref: '#/$defs/Hub' } }, required: ['id', 'other'], additionalProperties: false },
    Node: { type: 'object', properties: { id: { type: 'string' }, next: { $ref: '#/$defs/Node' } }, required: ['id'], additionalProperties: false },
    Hub: { type: 'object', properties: { back: { $ref: '#/$defs/RootCycle' }, n: { type: 'integer' } }, required: ['n'], additionalProperties: false },
  },
};
const HubServed: JsonSchema = {
  type: 'object',
  properties: { back: { $ref: '#/$defs/RootCycle' }, n: { type: 'integer' } },
  required: ['n'],
  additionalProperties: false,
  $defs: {
    Hub: { type: 'object', properties: { back: { $ref: '#/$defs/RootCycle' }, n: { type: 'integer' } }, required: ['n'], additionalProperties: false },
    RootCycle: { type: 'object', properties: { id: { type: 'string' }, other: { $ref: '#/$defs/Node' }, hub: { $ref: '#/$defs/Hub' } }, required: ['id', 'other'], additionalProperties: false },
    Node: { type: 'object', properties: { id: { type: 'string' }, next: { $ref: '#/$defs/Node' } }, required: ['id'], additionalProperties: false },
  },
};
const RootNodeServed: JsonSchema = {
  type: 'object',
  properties: { inner: { $ref: '#/$defs/Node2' }, back: { $ref: '#/$defs/Back' } },
  required: ['inner'],
  additionalProperties: false,
  $defs: {
    Node: { type: 'object', properties: { inner: { $ref: '#/$defs/Node2' }, back: { $ref: '#/$defs/Back' } }, required: ['inner'], additionalProperties: false },
    Node2: { type: 'object', properties: { id: { type: 'string' }, next: { $ref: '#/$defs/Node2' } }, required: ['id'], additionalProperties: false },
    Back: { type: 'object', properties: { root: { $ref: '#/$defs/Node' } }, required: ['root'], additionalProperties: false },
  },
};
const HolderServed: JsonSchema = {
  type: 'object',
  properties: {
    item: {
      oneOf: [
        { type: 'object', properties: { id: { type: 'string' }, next: { $ref: '#/$defs/LinkedItem' }, kind: { const: 'linked' } }, required: ['id', 'kind'], additionalProperties: false },
        { type: 'object', properties: { x: { type: 'number' }, kind: { const: 'other' } }, required: ['x', 'kind'], additionalProperties: false },
      ],
    },
  },
  required: ['item'],
  additionalProperties: false,
  $defs: { LinkedItem: { type: 'object', properties: { id: { type: 'string' }, next: { $ref: '#/$defs/LinkedItem' } }, required: ['id'], additionalProperties: false } },
};

describe('dtoSchema: served text of recursive DTOs (regression: $defs order, $defs names, inlined branches)', () => {
  const rows: [string, Class, JsonSchema][] = [
    ['Company (root first in $defs)', Company, CompanyServed],
    ['Person (root first in $defs)', Person, PersonServed],
    ['RootCycle (root first, then the classes in the order met)', RootCycle, RootCycleServed],
    ['Hub', Hub, HubServed],
    ['RootNode (the root takes its own name, the other Node is Node2)', RootNode, RootNodeServed],
    ['Holder (a self-recursive branch is inlined)', Holder, HolderServed],
  ];
  it.each(rows.flatMap(([name, cls, expected]) => (['input', 'output'] as const).map((direction) => [`${name}, ${direction}`, cls, expected, direction] as const)))(
    '%s',
    (_name, cls, expected, direction) => {
      expect(JSON.stringify(served(cls, direction))).toBe(JSON.stringify(expected));
    },
  );

  it('the inlined self-recursive branch checks its fields at any depth', () => {
    const validate = compileSchemaValidator(served(Holder, 'input'));
    expect(validate({ item: { kind: 'linked', id: 'a', next: { id: 'b', next: { id: 3 } } } }).ok).toBe(false);
    expect(validate({ item: { kind: 'linked', id: 'a', extra: 1 } }).ok).toBe(false);
    expect(validate({ item: { kind: 'linked', id: 'a', next: { id: 'b' } } }).ok).toBe(true);
  });

  it('a root that a class holds and that is a branch of its own union: both are complete', () => {
    class FileEntry {
      @IsInt() size!: number;
    }
    class Folder {
      @IsString() name!: string;
      @IsOptional() @ValidateNested() @Type(() => Folder) parent?: Folder;
      @IsOptional()
      @ValidateNested({ each: true })
      @Type(() => Object, {
        discriminator: {
          property: 'kind',
          subTypes: [
            { name: 'folder', value: Folder },
            { name: 'file', value: FileEntry },
          ],
        },
      })
      children?: (Folder | FileEntry)[];
    }
    const schema = served(Folder, 'input');
    expect(Object.keys(schema.$defs ?? {})).toEqual(['Folder', 'Folder.folder']);
    const validate = compileSchemaValidator(schema);
    expect(validate({ name: 'a', children: [{ kind: 'folder', name: 'b', children: [{ kind: 'file', size: 'big' }] }] }).ok).toBe(false);
    expect(validate({ name: 'a', children: [{ kind: 'folder', name: 'b', bogus: 1 }] }).ok).toBe(false);
    expect(validate({ name: 'a', parent: { name: 'p', parent: { name: 7 } } }).ok).toBe(false);
    expect(validate({ name: 'a', parent: { name: 'p' }, children: [{ kind: 'folder', name: 'b', parent: { name: 'c' }, children: [{ kind: 'file', size: 1 }] }] }).ok).toBe(true);
  });
});
