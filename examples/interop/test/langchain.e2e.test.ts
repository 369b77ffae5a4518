/**
 * LangChain's MCP adapters, @langchain/mcp-adapters 1.1.4 (with @langchain/core 1.4.0 and
 * @langchain/langgraph 1.7.3, its peers), on the machine's Node.js (it needs >= 20.10). No model:
 * `MultiServerMCPClient` -> `getTools()` -> `tool.invoke(args)`, the DynamicStructuredTool an agent
 * would hand the model. It connects with the MCP SDK v1 client (@modelcontextprotocol/sdk), so it
 * speaks the 2025 handshake only.
 */
import { createHarness, SERVERS, valueOf } from './helpers/harness';
import { ATLANTIS, MISSING_BOOK, TOKYO, WEATHER_STEPS, WEATHER_TOOLS } from './helpers/plans';
import type { Run } from './helpers/harness';

jest.setTimeout(90_000);

const STEPS = [...WEATHER_STEPS, { op: 'callTool', name: 'calculate', arguments: { operation: 'divide', a: 1, b: 0 } } as const];

function expectWeather({ outcomes, negotiated }: Run): void {
  const [list, tokyo, atlantis, calculate, search, divide] = outcomes;
  expect(valueOf<{ name: string }[]>(list).map((t) => t.name)).toEqual(WEATHER_TOOLS);
  const result = valueOf<{ type: string; text: string; structuredContent?: unknown }>(tokyo);
  expect(JSON.parse(result.text)).toEqual(TOKYO);
  expect(result.structuredContent).toEqual(TOKYO);
  // An isError result becomes a ToolException carrying the server's text.
  expect(atlantis).toEqual({ op: 'callTool', error: `MCP tool 'get_weather' on server 'weather' returned an error: ${ATLANTIS}` });
  expect(divide).toEqual({ op: 'callTool', error: "MCP tool 'calculate' on server 'weather' returned an error: Division by zero: b must not be 0 when dividing." });
  // The client's own behaviour: @langchain/core validates tool input against the advertised JSON
  // Schema before the call (StructuredTool.call; the details only with verboseParsingErrors), so
  // arguments the schema refuses never reach the server. The schema is what the server validates
  // with, so the verdict is the same; the field-by-field text is the client's to show.
  expect(calculate).toEqual({ op: 'callTool', error: 'Received tool input did not match expected schema' });
  expect(search).toEqual({ op: 'callTool', error: 'Received tool input did not match expected schema' });
  const called = negotiated.methods.filter((m) => m === 'tools/call');
  expect(called).toHaveLength(3); // Tokyo, Atlantis, divide by zero: not the two refused calls
}

describe('LangChain MCP adapters (@langchain/mcp-adapters 1.1.4)', () => {
  const harness = createHarness('langchain');
  afterAll(() => harness.close());

  it('stdio: lists and calls the tools; tool errors arrive with the server text; speaks 2025-11-25', async () => {
    const run = await harness.overStdio(SERVERS.weather, { steps: STEPS });
    expectWeather(run);
    expect(run.negotiated).toMatchObject({ era: 'legacy', version: '2025-11-25', requested: '2025-11-25' });
  });

  it('Streamable HTTP: lists and calls the tools; tool errors arrive with the server text; speaks 2025-11-25', async () => {
    const run = await harness.overHttp(SERVERS.weather, { steps: STEPS });
    expectWeather(run);
    expect(run.negotiated).toMatchObject({ era: 'legacy', version: '2025-11-25', requested: '2025-11-25' });
  });

  it('lists and reads resources (the full example over HTTP; the adapters have no prompt API)', async () => {
    const { outcomes, negotiated } = await harness.overHttp(SERVERS.full, {
      steps: [{ op: 'listResources' }, { op: 'readResource', uri: 'library://books/1' }, { op: 'readResource', uri: 'library://books/999' }],
    });
    const [resources, book, missing] = outcomes;
    expect(valueOf<{ uri: string }[]>(resources).map((r) => r.uri)).toEqual(['library://catalogue']);
    const contents = valueOf<{ uri: string; text: string }[]>(book);
    expect(contents).toMatchObject([{ uri: 'library://books/1', mimeType: 'application/json' }]);
    expect(JSON.parse(contents[0].text)).toMatchObject({ id: 1 });
    expect(missing).toEqual({ op: 'readResource', error: expect.stringContaining(MISSING_BOOK) });
    expect(negotiated).toMatchObject({ era: 'legacy', version: '2025-11-25' });
  });
});
