import 'reflect-metadata';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createTestClient, type TestClient, type TestToolResult } from '@toolwright/server/testing';
import { createWeatherApp } from '../src/app';

const text = (result: TestToolResult) => result.content![0].text!;

/** The protocol revisions clients speak: the 2025 handshake (most clients today) and 2026-07-28. */
const PROTOCOLS = ['2025-11-25', '2026-07-28'] as const;

/** The same assertions for every way of reaching the server. */
function weatherSuite(connect: () => Promise<TestClient>): void {
  let client: TestClient;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client.close());

  it('lists the four tools with precise schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['get_weather', 'calculate', 'get_time', 'search_notes']);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.get_weather.inputSchema).toEqual({
      type: 'object',
      properties: { location: { type: 'string', minLength: 1, description: "City name, e.g. 'Tokyo'" } },
      required: ['location'],
      additionalProperties: false,
    });
    expect(byName.get_weather.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
    expect(byName.get_weather.outputSchema?.required).toEqual(['location', 'temperature', 'conditions', 'unit']);
    expect(byName.calculate.inputSchema).toEqual({
      type: 'object',
      properties: {
        operation: { type: 'string', enum: ['add', 'subtract', 'multiply', 'divide'], description: 'The operation to apply' },
        a: { type: 'number', description: 'First operand' },
        b: { type: 'number', description: 'Second operand' },
      },
      required: ['operation', 'a', 'b'],
      additionalProperties: false,
    });
    expect(byName.get_time.inputSchema).toEqual({ type: 'object', additionalProperties: false });
    expect(byName.search_notes.inputSchema).toMatchObject({
      required: ['query', 'filters'],
      properties: {
        filters: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, maxItems: 10 } }, required: ['tags'], additionalProperties: false },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
      },
    });
  });

  it('gets the weather as structured content', async () => {
    const result = await client.callTool({ name: 'get_weather', arguments: { location: 'Tokyo' } });
    const report = { location: 'Tokyo', temperature: 22, conditions: 'Partly cloudy', unit: 'celsius' };
    expect(result.structuredContent).toEqual(report);
    expect(JSON.parse(text(result))).toEqual(report);
  });

  it('reports an unknown city as a tool error', async () => {
    const result = await client.callTool({ name: 'get_weather', arguments: { location: 'Atlantis' } });
    expect(result).toMatchObject({ isError: true });
    expect(text(result)).toBe("No weather data for 'Atlantis'. Known cities: tokyo, paris, new york.");
  });

  it.each(['constructor', '__proto__', 'toString'])('knows no city called %s: names from the model are never object members', async (location) => {
    const result = await client.callTool({ name: 'get_weather', arguments: { location } });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: `No weather data for '${location}'. Known cities: tokyo, paris, new york.` }] });
  });

  it('calculates, and refuses division by zero with a tool error', async () => {
    expect(text(await client.callTool({ name: 'calculate', arguments: { operation: 'multiply', a: 6, b: 7 } }))).toBe('6 multiply 7 = 42');
    const zero = await client.callTool({ name: 'calculate', arguments: { operation: 'divide', a: 1, b: 0 } });
    expect(zero).toMatchObject({ content: [{ type: 'text', text: 'Division by zero: b must not be 0 when dividing.' }], isError: true });
  });

  it('names every bad argument', async () => {
    const result = await client.callTool({ name: 'calculate', arguments: { operation: 'pow', a: '2' } });
    expect(result.isError).toBe(true);
    expect(text(result).split('\n')).toEqual([
      "Invalid arguments for tool 'calculate':",
      '- b: is required',
      '- operation: must be one of: "add", "subtract", "multiply", "divide" (got "pow")',
      '- a: must be a number (got string "2")',
    ]);
  });

  it('tells the time', async () => {
    const before = Date.now();
    const time = Date.parse(text(await client.callTool({ name: 'get_time', arguments: {} })));
    expect(time).toBeGreaterThanOrEqual(before - 1000);
    expect(time).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('searches notes with nested input, and validates it', async () => {
    const found = await client.callTool({ name: 'search_notes', arguments: { query: 'forecast', filters: { tags: ['weather'] } } });
    expect(JSON.parse(text(found))).toEqual([{ id: 2, text: 'Tokyo trip: check the forecast', tags: ['travel', 'weather', 'japan'], score: 1 }]);
    const bad = await client.callTool({ name: 'search_notes', arguments: { query: 'x', filters: { tags: ['a', 7], extra: 1 }, limit: 0 } });
    expect(text(bad).split('\n').slice(1).sort()).toEqual(['- filters.extra: is not allowed (unknown property)', '- filters.tags[1]: must be a string (got number 7)', '- limit: must be at least 1']);
  });

  it('answers an unknown tool with -32602', async () => {
    await expect(client.callTool({ name: 'get_stock_price', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });
}

describe.each(PROTOCOLS)('weather, in memory, protocol %s', (protocol) => {
  weatherSuite(async () => createTestClient(await createWeatherApp(), { protocol }));
});

describe.each(PROTOCOLS)('weather, over stdio (node dist/server.js), protocol %s', (protocol) => {
  weatherSuite(() => createTestClient({ transport: 'stdio', command: process.execPath, args: [join(__dirname, '..', 'dist', 'server.js')], stderr: 'ignore', protocol }));
});

describe('weather demo (npm run demo)', () => {
  it('prints the tools and the calls, valid and invalid', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(__dirname, '..', 'dist', 'demo.js')]);
    expect(stdout).toContain('tools/list -> 4 tools');
    expect(stdout).toContain('< 10 divide 4 = 2.5');
    expect(stdout).toContain('< Division by zero: b must not be 0 when dividing.');
    expect(stdout).toContain('- operation: must be one of');
    expect(stdout).toContain("JSON-RPC error -32602: Unknown tool 'get_stock_price'");
  });
});
