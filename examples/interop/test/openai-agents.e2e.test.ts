/**
 * OpenAI Agents SDK, @openai/agents 0.20.0 (its openai 7 dependency needs Node >= 22: it runs on the
 * pinned Node 22). No model: `MCPServerStdio` / `MCPServerStreamableHttp` -> `connect()` ->
 * `listTools()` / `callTool()`, and the function tool an Agent would hand the model
 * (`getAllMcpTools` -> `tool.invoke`). It connects with the MCP SDK v2 client in auto mode and offers
 * no setting for the era, so it is seen in 2026-07-28 only.
 */
import { createHarness, SERVERS, valueOf } from './helpers/harness';
import type { Outcome } from './helpers/runDriver';
import { ATLANTIS, BAD_CALCULATE, BAD_SEARCH, MISSING_BOOK, TOKYO, WEATHER_STEPS, WEATHER_TOOLS } from './helpers/plans';

jest.setTimeout(90_000);

interface Text {
  type: string;
  text: string;
}
interface Call {
  /** callToolResult(): the whole result. */
  result: { content: Text[]; isError?: boolean; structuredContent?: unknown };
  /** callTool(): the content the Agents SDK keeps. */
  content: Text[];
  /** The function tool's output: what the model reads. */
  forModel: Text;
}

function expectWeather([list, tokyo, atlantis, calculate, search]: Outcome[]): void {
  expect(valueOf<{ name: string }[]>(list).map((t) => t.name)).toEqual(WEATHER_TOOLS);
  expect(valueOf<Call>(tokyo).result).toMatchObject({ structuredContent: TOKYO });
  expect(JSON.parse(valueOf<Call>(tokyo).forModel.text)).toEqual(TOKYO);
  for (const [outcome, text] of [
    [atlantis, ATLANTIS],
    [calculate, BAD_CALCULATE],
  ] as const) {
    expect(valueOf<Call>(outcome).result).toMatchObject({ isError: true, content: [{ type: 'text', text }] });
    expect(valueOf<Call>(outcome).content).toEqual([{ type: 'text', text }]);
    // The model gets the server's words, field by field (the Agents SDK passes isError results on as text).
    expect(valueOf<Call>(outcome).forModel).toEqual({ type: 'text', text });
  }
  expect(valueOf<Call>(search).result.isError).toBe(true);
  expect(valueOf<Call>(search).forModel.text.split('\n').sort()).toEqual([...BAD_SEARCH].sort());
}

describe('OpenAI Agents SDK (@openai/agents 0.20.0)', () => {
  const harness = createHarness('openai-agents');
  afterAll(() => harness.close());

  it('MCPServerStdio: lists and calls the tools, good and bad arguments, in 2026-07-28', async () => {
    const { outcomes, negotiated } = await harness.overStdio(SERVERS.weather, { steps: WEATHER_STEPS });
    expectWeather(outcomes);
    expect(negotiated).toMatchObject({ era: 'modern', version: '2026-07-28' });
  });

  it('MCPServerStreamableHttp: lists and calls the tools, good and bad arguments, in 2026-07-28', async () => {
    const { outcomes, negotiated } = await harness.overHttp(SERVERS.weather, { steps: WEATHER_STEPS });
    expectWeather(outcomes);
    expect(negotiated).toMatchObject({ era: 'modern', version: '2026-07-28' });
  });

  it('lists and reads resources (the full example over HTTP; the Agents SDK has no prompt API)', async () => {
    const { outcomes, negotiated } = await harness.overHttp(SERVERS.full, {
      steps: [{ op: 'listResources' }, { op: 'readResource', uri: 'library://books/1' }, { op: 'readResource', uri: 'library://books/999' }],
    });
    const [resources, book, missing] = outcomes;
    expect(valueOf<{ uri: string }[]>(resources).map((r) => r.uri)).toEqual(['library://catalogue']);
    const contents = valueOf<{ contents: { uri: string; text: string }[] }>(book).contents;
    expect(contents).toMatchObject([{ uri: 'library://books/1', mimeType: 'application/json' }]);
    expect(JSON.parse(contents[0].text)).toMatchObject({ id: 1 });
    expect(missing).toEqual({ op: 'readResource', error: expect.stringContaining(MISSING_BOOK) });
    expect(negotiated).toMatchObject({ era: 'modern', version: '2026-07-28' });
  });
});
