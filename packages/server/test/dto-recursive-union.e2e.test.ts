import 'reflect-metadata';
import { Args, Param, Tool } from '@toolwright/core';
import { IsNumber, IsOptional, IsString, Type, ValidateNested } from '@toolwright/core/dto';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/client';

// A class that is one of its own discriminated subtypes: the tree's inner nodes.
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

// A cycle of two classes: a Part holds Sections (a plain @Type), a Section holds a Part or a Weight (a discriminator).
// `maxDecimalPlaces` is a check the schema cannot express, so these calls go through class-transformer and class-validator.
class Weight {
  @IsNumber({ maxDecimalPlaces: 1 }) grams!: number;
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

const seen: unknown[] = [];
class Trees {
  @Tool({ description: 'Takes a tree.' }) tree(@Args() n: TreeNode) {
    seen.push(n);
    return 'ok';
  }
  @Tool({ description: 'Returns a tree.', output: TreeNode }) grow(@Param('leaf') leaf: string) {
    return { children: [{ kind: 'node', children: [{ kind: 'leaf', v: leaf === 'bad' ? leaf : Number(leaf) }] }] };
  }
  @Tool({ description: 'Takes a part.' }) part(@Args() p: Part) {
    seen.push(p);
    return 'ok';
  }
}

describe.each(['legacy', 'modern'] as const)('a class that is a branch of its own discriminated union (%s)', (era) => {
  let client: Client;
  const errors: string[] = [];
  beforeAll(async () => {
    const logger = { debug() {}, info() {}, warn() {}, error: (message: string, issues?: unknown) => void errors.push(`${message} ${JSON.stringify(issues)}`) };
    client = await createTestClient(await createApp({ name: 'trees', version: '1.0.0', tools: [Trees], logger }), { era });
  });
  afterAll(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) => {
    seen.length = 0;
    const result = await client.callTool({ name, arguments: args });
    return { isError: result.isError === true, text: (result.content as { text: string }[])[0].text, received: seen[0] };
  };

  it('advertises the recursive branch as a $ref to the tagged class in $defs', async () => {
    const { tools } = await client.listTools();
    const tree = tools.find((t) => t.name === 'tree')!.inputSchema as unknown as {
      properties: Record<string, { items: { oneOf: object[] } }>;
      $defs: Record<string, { properties: Record<string, unknown> }>;
    };
    expect(tree.properties.children.items.oneOf[1]).toEqual({ $ref: '#/$defs/TreeNode.node' });
    expect(tree.$defs['TreeNode.node']).toEqual({ type: 'object', properties: { children: tree.properties.children, kind: { const: 'node' } }, required: ['kind'], additionalProperties: false });
  });

  it('refuses a bad value inside the recursive branch, naming the field (regression: the branch schema was empty)', async () => {
    const out = await call('tree', { children: [{ kind: 'node', bogus: 1, children: [{ kind: 'leaf', v: 'x' }] }] });
    expect(out.isError).toBe(true);
    expect(out.text).toContain('- children[0].children[0].v: must be a number (got string "x")');
    expect(out.text).toContain('- children[0].bogus: is not allowed (unknown property)');
    expect(out.received).toBeUndefined();
    const tag = await call('tree', { children: [{ kind: 'node', children: [{ kind: 'node', children: [{ kind: 'tree' }] }] }] });
    expect(tag.text).toContain('- children[0].children[0].children[0].kind: must be one of: "leaf", "node" (got "tree")');
  });

  it('builds a good tree into TreeNode and Leaf instances at every level, without the tags', async () => {
    const out = await call('tree', {
      children: [
        { kind: 'leaf', v: 1 },
        { kind: 'node', children: [{ kind: 'node', children: [{ kind: 'leaf', v: 2 }] }] },
      ],
    });
    expect(out).toMatchObject({ isError: false, text: 'ok' });
    const root = out.received as TreeNode;
    expect(root).toBeInstanceOf(TreeNode);
    const [leaf, inner] = root.children!;
    expect(leaf).toBeInstanceOf(Leaf);
    expect(leaf).toEqual({ v: 1 });
    expect(inner).toBeInstanceOf(TreeNode);
    const deeper = (inner as TreeNode).children![0] as TreeNode;
    expect(deeper).toBeInstanceOf(TreeNode);
    expect(deeper.children![0]).toBeInstanceOf(Leaf);
    expect(JSON.stringify(root)).toBe('{"children":[{"v":1},{"children":[{"children":[{"v":2}]}]}]}');
  });

  it('checks a result at every level of the output schema, and the client accepts a good one', async () => {
    const good = await client.callTool({ name: 'grow', arguments: { leaf: '3' } });
    expect(good.isError).toBeFalsy();
    expect(good.structuredContent).toEqual({ children: [{ kind: 'node', children: [{ kind: 'leaf', v: 3 }] }] });
    const bad = await client.callTool({ name: 'grow', arguments: { leaf: 'bad' } });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toBeUndefined();
    expect(errors.join('\n')).toContain('children[0].children[0].v');
  });

  it('validates every level of a cycle of two classes, the check only class-validator runs included', async () => {
    const part = (first: Record<string, unknown>) => ({ label: 'p', inside: [{ title: 's', first: { is: 'part', label: 'q', inside: [{ title: 't', first }] } }] });
    const bad = await call('part', part({ is: 'part', label: 7, extra: true }));
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('- inside[0].first.inside[0].first.label: must be a string (got number 7)');
    expect(bad.text).toContain('- inside[0].first.inside[0].first.extra: is not allowed (unknown property)');
    expect(bad.received).toBeUndefined();
    const decimals = await call('part', part({ is: 'weight', grams: 1.25 }));
    expect(decimals.isError).toBe(true);
    expect(decimals.text).toContain('inside[0].first.inside[0].first.grams');
    const good = await call('part', part({ is: 'weight', grams: 2.5 }));
    expect(good).toMatchObject({ isError: false, text: 'ok' });
    const root = good.received as Part;
    expect(root).toBeInstanceOf(Part);
    const section = root.inside![0] as Section;
    expect(section).toBeInstanceOf(Section);
    expect(section.first).toBeInstanceOf(Part);
    const inner = (section.first as Part).inside![0] as Section;
    expect(inner).toBeInstanceOf(Section);
    expect(inner.first).toBeInstanceOf(Weight);
    expect(inner.first).toEqual({ grams: 2.5 });
  });
});
