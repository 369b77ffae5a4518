import 'reflect-metadata';
import { Args, Param, Tool, type Class, type ContainerLike } from '@toolwright/core';
import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { Container } from 'typedi';
import { KitchenTools, ReportTools } from './fixtures/kitchen.tools';
import { useQuietClient } from './fixtures/useQuietClient';

const textOf = (result: Record<string, unknown>) => (result.content as { text?: string }[])[0]?.text;

describe('tools through a real SDK client (in memory)', () => {
  const suite = useQuietClient({ name: 'kitchen', version: '1.2.3', title: 'Kitchen', instructions: 'Be nice.', tools: [KitchenTools, ReportTools] });

  it('initializes with server info, instructions and the tools capability', () => {
    expect(suite.client.getServerVersion()).toEqual({ name: 'kitchen', version: '1.2.3', title: 'Kitchen' });
    expect(suite.client.getInstructions()).toBe('Be nice.');
    expect(suite.client.getServerCapabilities()).toEqual({ tools: { listChanged: true }, logging: {} });
  });

  it('lists every tool with its schema', async () => {
    const { tools } = await suite.client.listTools();
    expect(tools.map((t) => t.name)).toContain('returns_string');
    expect(tools.find((t) => t.name === 'returns_string')).toEqual({
      name: 'returns_string',
      description: 'Returns a string.',
      inputSchema: { type: 'object', additionalProperties: false },
    });
    expect(tools.find((t) => t.name === 'shapes')?.inputSchema).toEqual({
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date-time' },
        at: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'integer' } }, required: ['x', 'y'], additionalProperties: false },
        n: { type: 'number', default: 3 },
      },
      required: ['when', 'at'],
      additionalProperties: false,
    });
  });

  it.each([
    ['returns_string', [{ type: 'text', text: 'hello' }]],
    ['returns_number', [{ type: 'text', text: '42' }]],
    ['returns_boolean', [{ type: 'text', text: 'false' }]],
    ['returns_object', [{ type: 'text', text: '{"a":1,"b":[true]}' }]],
    ['returns_array', [{ type: 'text', text: '[1,"two"]' }]],
    ['returns_nothing', []],
    ['returns_image', [{ type: 'image', data: 'AQID', mimeType: 'image/png' }]],
    [
      'returns_blocks',
      [
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' },
        { type: 'resource', resource: { uri: 'mem://x', mimeType: 'text/plain', text: 'inside' }, annotations: { audience: ['user'], priority: 0.5 } },
      ],
    ],
  ])('normalizes the result of %s', async (name, content) => {
    const result = await suite.client.callTool({ name, arguments: {} });
    expect(result.content).toEqual(content);
    expect(result.isError).toBeUndefined();
  });

  it('passes a complete CallToolResult through untouched', async () => {
    expect(await suite.client.callTool({ name: 'returns_result', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'as is' }], isError: false, _meta: { kept: true } });
  });

  it('accepts a call without an arguments key', async () => {
    expect(textOf(await suite.client.callTool({ name: 'returns_string' }))).toBe('hello');
  });

  it('runs async methods', async () => {
    expect(textOf(await suite.client.callTool({ name: 'async_value', arguments: { ms: 5 } }))).toBe('waited 5');
  });

  it('turns invalid arguments into an isError result with one line per field', async () => {
    const result = await suite.client.callTool({ name: 'shapes', arguments: { when: 'yesterday', at: { x: 1.5 }, extra: true } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      [
        "Invalid arguments for tool 'shapes':",
        '- when: must be a date-time in RFC 3339 form, such as 2024-01-01T09:30:00Z (got "yesterday")',
        '- at.y: is required',
        '- at.x: must be an integer (got number 1.5)',
        '- extra: is not allowed (unknown property)',
      ].join('\n'),
    );
  });

  it('never converts strings to numbers silently', async () => {
    const result = await suite.client.callTool({ name: 'async_value', arguments: { ms: '5' } });
    expect(textOf(result)).toContain('- ms: must be an integer (got string "5")');
  });

  it('validates array elements against an enum', async () => {
    expect(textOf(await suite.client.callTool({ name: 'tags', arguments: { tags: ['a', 'b'] } }))).toBe('a+b');
    const bad = await suite.client.callTool({ name: 'tags', arguments: { tags: ['a', 'z'] } });
    expect(textOf(bad)).toContain('- tags[1]: must be one of: "a", "b" (got "z")');
  });

  it('converts dates and DTO params, and applies defaults', async () => {
    const result = await suite.client.callTool({ name: 'shapes', arguments: { when: '2026-11-29T10:00:00Z', at: { x: 1, y: 2 } } });
    expect(JSON.parse(textOf(result)!)).toEqual({ isDate: true, year: 2026, isPoint: true, sum: 3, n: 3 });
  });

  it('answers an unknown tool with JSON-RPC error -32602', async () => {
    await expect(suite.client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Unknown tool 'nope'"),
    });
  });

  it('reports a ToolError with its message', async () => {
    const result = await suite.client.callTool({ name: 'tool_error', arguments: {} });
    expect(result).toEqual({ content: [{ type: 'text', text: 'City not found: Atlantis' }], isError: true });
  });

  it.each(['crash', 'rejects'])('reports an unexpected error from %s generically, logging the stack to stderr only', async (name) => {
    const result = await suite.client.callTool({ name, arguments: {} });
    expect(result).toEqual({ content: [{ type: 'text', text: `Tool '${name}' failed with an internal error. The server log has the details.` }], isError: true });
    expect(JSON.stringify(result)).not.toMatch(/hunter2|at .*\.ts|TypeError/);
    const logged = suite.stderr.mock.calls.map((c) => String(c[0])).join('');
    expect(logged).toMatch(/threw an unexpected error/);
    expect(logged).toMatch(/\n\s+at /);
  });

  it('keeps serving after failures', async () => {
    await suite.client.callTool({ name: 'crash', arguments: {} });
    expect(textOf(await suite.client.callTool({ name: 'returns_string', arguments: {} }))).toBe('hello');
  });

  it('resolves tool classes and their dependencies through typedi', async () => {
    const first = Number(textOf(await suite.client.callTool({ name: 'count', arguments: {} })));
    const second = Number(textOf(await suite.client.callTool({ name: 'count', arguments: {} })));
    expect(second).toBe(first + 1);
  });

  it('passes the call context', async () => {
    const result = await suite.client.callTool({ name: 'who_am_i', arguments: {} });
    expect(JSON.parse(textOf(result)!)).toEqual({ x: null, toolName: 'who_am_i', requestId: 'number', aborted: false, sessionId: null });
  });

  it('returns structuredContent plus the same JSON as text when an output schema exists', async () => {
    const { tools } = await suite.client.listTools();
    const schema = { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'integer' } }, required: ['city', 'celsius'], additionalProperties: false };
    expect(tools.find((t) => t.name === 'report')?.outputSchema).toEqual(schema);
    expect(tools.find((t) => t.name === 'inferred')?.outputSchema).toEqual(schema);
    const result = await suite.client.callTool({ name: 'report', arguments: { city: 'Rome' } });
    expect(result.structuredContent).toEqual({ city: 'Rome', celsius: 21 });
    expect(JSON.parse(textOf(result)!)).toEqual({ city: 'Rome', celsius: 21 });
  });

  it('refuses to send output that breaks its schema', async () => {
    const result = await suite.client.callTool({ name: 'broken', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/did not match the declared output schema/);
    expect(result.structuredContent).toBeUndefined();
  });
});

describe('apps and containers', () => {
  class AlphaTools {
    @Tool({ description: 'a' }) alpha() {
      return 'a';
    }
  }
  class BetaTools {
    @Tool({ description: 'b' }) beta(@Param('x') x: string) {
      return x;
    }
  }

  it('keeps two apps in one process apart', async () => {
    const [a, b] = await Promise.all([createApp({ name: 'a', version: '1', tools: [AlphaTools] }), createApp({ name: 'b', version: '1', tools: [BetaTools] })]);
    const [ca, cb] = await Promise.all([createTestClient(a), createTestClient(b)]);
    expect((await ca.listTools()).tools.map((t) => t.name)).toEqual(['alpha']);
    expect((await cb.listTools()).tools.map((t) => t.name)).toEqual(['beta']);
    await expect(ca.callTool({ name: 'beta', arguments: { x: '1' } })).rejects.toMatchObject({ code: -32602 });
    await Promise.all([ca.close(), cb.close()]);
  });

  it('gives each connection its own SDK Server', async () => {
    const app = await createApp({ name: 'a', version: '1', tools: [AlphaTools] });
    expect(app.createServer()).not.toBe(app.createServer());
  });

  it('uses any container with a get(cls) method', async () => {
    const built: Class[] = [];
    const container: ContainerLike = { get: (cls) => (built.push(cls), new cls()) };
    const app = await createApp({ name: 'c', version: '1', tools: [AlphaTools], container });
    const client = await createTestClient(app);
    expect((await client.callTool({ name: 'alpha', arguments: {} })).content).toEqual([{ type: 'text', text: 'a' }]);
    expect(built).toContain(AlphaTools);
    await client.close();
  });

  it('uses a scoped typedi container', async () => {
    const scoped = Container.of('tests-scope');
    const app = await createApp({ name: 's', version: '1', tools: [KitchenTools], container: scoped });
    const client = await createTestClient(app);
    expect(textOf(await client.callTool({ name: 'count', arguments: {} }))).toBe('1');
    await client.close();
    Container.reset('tests-scope');
  });

  it('loads tool classes from glob patterns', async () => {
    const app = await createApp({ name: 'g', version: '1', tools: ['fixtures/*.tools.{ts,js}'], cwd: __dirname });
    expect(app.registry.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['returns_string', 'report']));
    await expect(createApp({ name: 'g', version: '1', tools: ['nothing/*.js'], cwd: __dirname })).rejects.toThrow(/matched no files/);
  });

  it('refuses a tools option that is no list, and a path to no file, with a ConfigError naming the fix', async () => {
    const refusal = (fix: RegExp) => expect.objectContaining({ kind: 'config', message: expect.stringMatching(fix) });
    for (const tools of [undefined, 'fixtures/*.tools.js', KitchenTools]) {
      await expect(createApp({ name: 'g', version: '1', tools: tools as never, cwd: __dirname })).rejects.toEqual(
        refusal(/`tools` is a list of tool classes and\/or glob patterns, e\.g\. tools: \[WeatherTools\]/),
      );
    }
    await expect(createApp({ name: 'g', version: '1', tools: ['dist/not-built.js'], cwd: __dirname })).rejects.toEqual(
      refusal(/the pattern 'dist\/not-built\.js' matched no files .*Build the project first/),
    );
  });

  it('coerces string arguments only when the app asks for it', async () => {
    const app = await createApp({ name: 'k', version: '1', tools: [KitchenTools], coerce: true });
    const client = await createTestClient(app);
    expect(textOf(await client.callTool({ name: 'async_value', arguments: { ms: '1' } }))).toBe('waited 1');
    await client.close();
  });
});

describe('tool descriptors', () => {
  class Category {
    @IsString() name!: string;
    @IsOptional() @ValidateNested({ each: true }) @Type(() => Category) children?: Category[];
  }

  class CatalogTools {
    @Tool({
      name: 'catalog.import-v2',
      title: 'Import a catalog',
      description: 'Imports a category tree.',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'light' }],
      _meta: { 'example.com/owner': 'catalog-team' },
    })
    importCatalog(@Args() root: Category) {
      const count = (c: Category): number => 1 + (c.children ?? []).reduce((n, child) => n + count(child), 0);
      return `${root instanceof Category ? 'Category' : 'plain'} tree of ${count(root)}`;
    }
  }

  it('carries title, annotations, icons and _meta as declared', async () => {
    const client = await createTestClient(await createApp({ name: 'c', version: '1', tools: [CatalogTools] }));
    const [tool] = (await client.listTools()).tools;
    expect(tool).toMatchObject({
      name: 'catalog.import-v2',
      title: 'Import a catalog',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'light' }],
      _meta: { 'example.com/owner': 'catalog-team' },
    });
    await client.close();
  });

  it('serves a recursive DTO through root-level $defs and validates through the reference', async () => {
    const client = await createTestClient(await createApp({ name: 'c', version: '1', tools: [CatalogTools] }));
    const [tool] = (await client.listTools()).tools;
    const category = {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Category' } } },
      required: ['name'],
      additionalProperties: false,
    };
    expect(tool.inputSchema).toEqual({ ...category, $defs: { Category: category } });
    const ok = await client.callTool({ name: 'catalog.import-v2', arguments: { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] } });
    expect(textOf(ok)).toBe('Category tree of 3');
    const bad = await client.callTool({ name: 'catalog.import-v2', arguments: { name: 'a', children: [{ children: [{ name: 5 }] }] } });
    expect(textOf(bad)).toBe("Invalid arguments for tool 'catalog.import-v2':\n- children[0].name: is required\n- children[0].children[0].name: must be a string (got number 5)");
    await client.close();
  });
});
