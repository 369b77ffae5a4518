/**
 * Runs the snippets the guide pages show (docs/snippets/**) through a real MCP client,
 * so the docs' code works as the pages say.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Container } from 'typedi';
import { GreetingTools } from '../snippets/tools/greeting.tools';
import { Priority, TaskTools } from '../snippets/tools/task.tools';
import { ReportTools } from '../snippets/tools/chart.tools';
import { AsyncBookTools, BookTools, CatalogueTools } from '../snippets/dtos/books.tools';
import { CLOCK, CurrencyTools, TimeTools } from '../snippets/dependency-injection/typedi';
import { createHelloApp } from '../snippets/dependency-injection/custom-container';
import { AccountTools } from '../snippets/errors/tool-errors';
import { start } from '../snippets/errors/build';
import { ShopTools } from '../snippets/migrating/shop.tools';
import { createServer as createSdkServer } from '../snippets/migrating/sdk-server';
import { inspect } from '../snippets/internals/registry';
import { PortableTools } from '../snippets/compilers/explicit';
import { createTestClient } from '@toolwright/server/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { connect, textOf } from './helpers';

let stderr: jest.SpyInstance;
beforeAll(() => {
  stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterAll(() => stderr.mockRestore());

describe('tools page', () => {
  it('serves a greeting tool', async () => {
    const { client, close } = await connect([GreetingTools]);
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      {
        name: 'greet',
        description: 'Greet someone by name. Use when the user asks for a greeting.',
        inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'Who to greet' } }, required: ['name'], additionalProperties: false },
      },
    ]);
    expect(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })).toEqual({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    await close();
  });

  it('derives parameter schemas from types and options', async () => {
    const { client, close } = await connect([TaskTools]);
    const [tool] = (await client.listTools()).tools;
    expect(tool).toEqual(JSON.parse(readFileSync(join(__dirname, '../snippets/tools/task-tool.json'), 'utf8')));
    const result = await client.callTool({ name: 'tasks.add', arguments: { title: 'Water plants', due: '2026-12-01T09:00:00Z' } });
    expect(JSON.parse(textOf(result)!)).toEqual({ title: 'Water plants', priority: Priority.Low, tags: [], due: '2026-12-01T09:00:00.000Z' });
    await close();
  });

  it('turns return values into content', async () => {
    const { client, close } = await connect([ReportTools]);
    expect(await client.callTool({ name: 'count_words', arguments: { text: 'one two three' } })).toEqual({ content: [{ type: 'text', text: '3' }] });
    expect(textOf(await client.callTool({ name: 'sales_summary', arguments: {} }))).toBe('{"total":1280,"currency":"EUR"}');
    const chart = await client.callTool({ name: 'sales_chart', arguments: {} });
    expect((chart.content as { type: string }[]).map((c) => c.type)).toEqual(['text', 'image']);
    const report = await client.callTool({ name: 'sales_report', arguments: {} });
    expect((report.content as { type: string }[]).map((c) => c.type)).toEqual(['resource_link', 'resource']);
    await close();
  });
});

describe('DTOs page', () => {
  it('derives input and output schemas from DTO classes', async () => {
    const { client, close } = await connect([BookTools, CatalogueTools, AsyncBookTools]);
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === 'search_books')!;
    expect(search.inputSchema).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 2, description: 'Words to look for in titles', examples: ['dune'] },
        genres: { type: 'array', maxItems: 3, items: { type: 'string', enum: ['fiction', 'science', 'history'] }, description: 'Only these genres' },
        published: {
          type: 'object',
          properties: {
            from: { type: 'integer', minimum: 1900, description: 'First year, inclusive' },
            to: { type: 'integer', maximum: 2100, description: 'Last year, inclusive' },
          },
          required: ['from', 'to'],
          additionalProperties: false,
          description: 'Publication years',
        },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Most results to return', default: 10 },
      },
      required: ['query'],
      additionalProperties: false,
    });
    expect(search.outputSchema).toMatchObject({ type: 'object', required: ['books', 'total'] });
    expect(tools.find((t) => t.name === 'newest_books')?.outputSchema).toEqual(search.outputSchema);
    expect(tools.find((t) => t.name === 'count_books')?.outputSchema).toBeUndefined();

    const found = await client.callTool({ name: 'search_books', arguments: { query: 'dune', published: { from: 1960, to: 1966 } } });
    expect(found.structuredContent).toEqual({ books: [{ title: 'Dune', year: 1965 }], total: 1 });
    expect(JSON.parse(textOf(found)!)).toEqual(found.structuredContent);

    const bad = await client.callTool({ name: 'search_books', arguments: { query: 'd', published: { from: 1800, to: 1900 } } });
    expect(bad.isError).toBe(true);
    expect(`${textOf(bad)}\n`).toBe(readFileSync(join(__dirname, '../snippets/dtos/invalid-search.txt'), 'utf8'));

    expect(textOf(await client.callTool({ name: 'count_books', arguments: { query: 'dune' } }))).toBe('2');
    expect((await client.callTool({ name: 'newest_books', arguments: {} })).structuredContent).toMatchObject({ total: 2 });
    await close();
  });
});

describe('dependency injection page', () => {
  afterAll(() => Container.remove(CLOCK));

  it('injects services with typedi', async () => {
    Container.set(CLOCK, { now: () => new Date('2026-11-30T12:00:00Z') });
    const { client, close } = await connect([CurrencyTools, TimeTools]);
    expect(textOf(await client.callTool({ name: 'convert', arguments: { amount: 10, from: 'EUR', to: 'USD' } }))).toBe('10.80 USD');
    expect(textOf(await client.callTool({ name: 'now', arguments: {} }))).toBe('2026-11-30T12:00:00.000Z');
    await close();
  });

  it('uses any container', async () => {
    const client = await createTestClient(await createHelloApp());
    expect(textOf(await client.callTool({ name: 'hello', arguments: {} }))).toBe('Hej, world!');
    await client.close();
  });
});

describe('errors page', () => {
  it('turns ToolError into isError results and hides unexpected errors', async () => {
    const { client, close } = await connect([AccountTools]);
    const missing = await client.callTool({ name: 'withdraw', arguments: { account: 'bob', amount: 5 } });
    expect(missing).toEqual(JSON.parse(readFileSync(join(__dirname, '../snippets/errors/unknown-account.json'), 'utf8')));
    const bug = await client.callTool({ name: 'close', arguments: { account: 'alice' } });
    expect(bug.isError).toBe(true);
    expect(`${textOf(bug)}\n`).toBe(readFileSync(join(__dirname, '../snippets/errors/internal-error.txt'), 'utf8'));
    expect(String(stderr.mock.calls.map((c) => c[0]).join(''))).toContain("Cannot read properties of undefined (reading 'alice')");
    await expect(client.callTool({ name: 'deposit', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await close();
  });

  it('reports build errors at startup', async () => {
    class Empty {}
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await start([Empty])).toBeUndefined();
    expect(errors).toHaveBeenCalledWith('Empty: has no @Tool, @Resource or @Prompt methods (fix: decorate at least one method with @Tool(), or remove the class from `tools`.)');
    expect(process.exitCode).toBe(1);
    process.exitCode = 0;
    errors.mockRestore();
  });
});

describe('compilers page', () => {
  it('builds tools whose types are all stated, even without metadata', async () => {
    Reflect.deleteMetadata('design:paramtypes', PortableTools.prototype, 'echo');
    const { client, close } = await connect([PortableTools]);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'ab', count: 2 } }))).toBe('abab');
    await close();
  });
});

describe('migrating page', () => {
  it('serves the same tool as the SDK version', async () => {
    const { client, close } = await connect([ShopTools]);
    const sdk = new Client({ name: 'docs', version: '0.0.0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([createSdkServer().connect(b), sdk.connect(a)]);
    const ours = (await client.listTools()).tools[0];
    const theirs = (await sdk.listTools()).tools[0];
    expect(ours.name).toBe(theirs.name);
    expect(ours.inputSchema.properties).toEqual({ item: { type: 'string', minLength: 1, description: 'The item name' } });
    expect(textOf(await client.callTool({ name: 'check_stock', arguments: { item: 'apple' } }))).toBe('3');
    expect(textOf(await sdk.callTool({ name: 'check_stock', arguments: { item: 'apple' } }))).toBe('3');
    expect(await client.callTool({ name: 'check_stock', arguments: { item: 'pear' } })).toEqual(await sdk.callTool({ name: 'check_stock', arguments: { item: 'pear' } }));
    await sdk.close();
    await close();
  });
});

describe('internals page', () => {
  it('builds a registry without a server', async () => {
    const { list, result } = await inspect();
    expect(list.tools.map((t) => t.name)).toEqual(['add']);
    expect(result).toEqual({ content: [{ type: 'text', text: '5' }] });
  });
});
