import 'reflect-metadata';
import { Args, Ctx, Param, Tool, UseMiddleware, type ToolContext } from '@toolwright/core';
import { IsOptional, IsString, ValidateNested, Type } from '@toolwright/core/dto';
import { createApp, type App } from '@toolwright/server';
import { cache } from '@toolwright/server/middleware';
import { createTestClient, toolError } from '@toolwright/server/testing';

/**
 * Arguments deeper, wider and larger than any schema needs: each is refused as invalid
 * arguments naming the field (never an internal error, never a RangeError on the wire), and
 * the server answers the next call.
 */
class TreeNode {
  @IsString() name!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
}
const SELF = { type: 'object', properties: { next: { $ref: '#' } } } as const;

class Deep {
  @Tool({ description: 'Accepts anything; cached.', annotations: { readOnlyHint: true } })
  @UseMiddleware(cache({ ttlMs: 60_000 }))
  anything(@Param('data', { schema: {} }) data: unknown) {
    return { kind: typeof data };
  }
  @Tool({ description: 'A recursive DTO.' })
  tree(@Args() node: TreeNode) {
    return node.name;
  }
  @Tool({ description: 'A raw recursive schema, with the context (2026-07-28 round binding).', inputSchema: SELF as never })
  linked(args: unknown, @Ctx() ctx: ToolContext) {
    return typeof ctx;
  }
  @Tool({ description: 'Numbers.' })
  numbers(@Param('list', { type: () => [Number] }) list: number[]) {
    return list.length;
  }
}

const nested = (depth: number): Record<string, unknown> => {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) value = { next: value };
  return value;
};
const arrays = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};
const trees = (depth: number): Record<string, unknown> => {
  let value: Record<string, unknown> = { name: 'leaf' };
  for (let i = 0; i < depth; i++) value = { name: 'n', children: [value] };
  return value;
};

let app: App;
beforeAll(async () => {
  app = await createApp({ name: 'deep', version: '1.0.0', tools: [Deep] });
});

describe.each(['2025-11-25', '2026-07-28'] as const)('%s', (protocol) => {
  test.each([
    ['anything', { data: arrays(100_000) }, 'data[0][0][0][0]…[0][0][0][0][0]'],
    ['anything', { data: nested(5_000) }, 'data.next.next.next.next….next.next.next.next.next'],
    ['tree', trees(50_000), 'children[0].children[0].children….children[0].children[0].children'],
    ['linked', nested(5_000), 'next.next.next.next.next….next.next.next.next.next'],
    ['linked', nested(100_000), 'next.next.next.next.next….next.next.next.next.next'],
  ])('%s: too deep is invalid arguments naming the path, and the next call is served', async (name, args, path) => {
    const client = await createTestClient(app, { protocol });
    try {
      const result = await client.callTool({ name, arguments: args });
      expect(await toolError(result)).toBe(`Invalid arguments for tool '${name}':\n- ${path}: nests deeper than 1000 levels of objects and arrays: flatten it, or send it as text.`);
      expect(JSON.stringify(result)).not.toMatch(/RangeError|call stack/);
      expect(await client.callTool({ name: 'anything', arguments: { data: arrays(1000) } })).toMatchObject({ content: [{ text: '{"kind":"object"}' }] });
    } finally {
      await client.close();
    }
  });

  test('1,000 levels pass through the DTO, the raw recursive schema and the cache', async () => {
    const client = await createTestClient(app, { protocol });
    try {
      expect((await client.callTool({ name: 'tree', arguments: trees(499) })).content).toEqual([{ type: 'text', text: 'n' }]);
      expect((await client.callTool({ name: 'linked', arguments: nested(1000) })).isError).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  test('a million bad items make a short message', async () => {
    const client = await createTestClient(app, { protocol });
    try {
      const message = await toolError(client.callTool({ name: 'numbers', arguments: { list: new Array<string>(1_000_000).fill('x') } }));
      expect(message.split('\n')).toHaveLength(22);
      expect(message).toMatch(/^Invalid arguments for tool 'numbers':\n- list\[0\]: must be a number \(got string "x"\)\n/);
      expect(message).toMatch(/- … and more \(the check stopped after 100 issues\)$/);
    } finally {
      await client.close();
    }
  });
});

test('over real HTTP, a 2026-07-28 call whose arguments are 5,000 levels deep is answered with the tool error, not -32603 with a RangeError', async () => {
  const listener = await app.listen({ transport: 'http', port: 0, host: '127.0.0.1', logLevel: 'silent', exitOnSignal: false });
  try {
    const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
    // Written out by hand: the client's own JSON.stringify would overflow first at 100,000 levels.
    const call = async (args: string) => {
      const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"linked","arguments":${args},"_meta":${JSON.stringify(envelope)}}}`;
      const response = await fetch(listener.url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'linked' },
      });
      return (await response.json()) as { result?: { isError?: boolean; content: { text: string }[] }; error?: unknown };
    };
    for (const depth of [5_000, 100_000]) {
      const answer = await call('{"next":'.repeat(depth) + '{}' + '}'.repeat(depth));
      expect(answer.error).toBeUndefined();
      expect(answer.result?.isError).toBe(true);
      expect(answer.result?.content[0].text).toMatch(/^Invalid arguments for tool 'linked':\n- next\.next.*: nests deeper than 1000 levels/);
    }
    expect((await call('{"next":{}}')).result?.isError).toBeUndefined();
  } finally {
    await listener.close();
  }
});
