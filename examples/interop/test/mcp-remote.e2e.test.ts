/**
 * mcp-remote 0.15.1 as a stdio <-> HTTP bridge, from node_modules: a stdio client starts
 * `mcp-remote <url> --allow-http --transport http-only` as its server, and mcp-remote forwards each
 * message to Toolwright over Streamable HTTP. The stdio client is the MCP SDK v2 client
 * (drivers/mcp-sdk.mjs) in its two negotiation modes; the era is read at the HTTP side, behind
 * mcp-remote, by a recording proxy.
 */
import { join } from 'node:path';
import { createHarness, SERVERS, valueOf, type Run } from './helpers/harness';
import { negotiatedEra } from './helpers/negotiatedEra';
import { runDriver } from './helpers/runDriver';
import { ATLANTIS, BAD_CALCULATE, BAD_PROMPT, BAD_SEARCH, FULL_STEPS, MISSING_BOOK, TOKYO, WEATHER_STEPS, WEATHER_TOOLS } from './helpers/plans';
import type { Plan } from './helpers/runDriver';

jest.setTimeout(90_000);

const MCP_REMOTE = join(__dirname, '..', '..', '..', 'node_modules', 'mcp-remote', 'dist', 'proxy.js');

interface CallToolResult {
  content: { type: string; text: string }[];
  isError?: boolean;
  structuredContent?: unknown;
}

describe('mcp-remote 0.15.1 (stdio client -> mcp-remote -> Toolwright over HTTP)', () => {
  const harness = createHarness('mcp-remote');
  afterAll(() => harness.close());

  /** Serves `server` over HTTP behind a recording proxy and runs the plan through mcp-remote pointed at the proxy. */
  async function bridged(server: string, plan: Omit<Plan, 'target'>): Promise<Run> {
    const proxy = await harness.proxied(server);
    // mcp-remote keeps OAuth state under ~/.mcp-auth: HOME is the scratch folder (runDriver sets it).
    const target = { stdio: { command: process.execPath, args: [MCP_REMOTE, proxy.url, '--allow-http', '--transport', 'http-only'] } };
    const outcomes = await runDriver('mcp-sdk', { target, ...plan }, { HOME: harness.dir });
    return { outcomes, negotiated: negotiatedEra(proxy.records) };
  }

  function expectWeather({ outcomes: [list, tokyo, atlantis, calculate, search] }: Run): void {
    expect(valueOf<{ name: string }[]>(list).map((t) => t.name)).toEqual(WEATHER_TOOLS);
    expect(valueOf<CallToolResult>(tokyo)).toMatchObject({ structuredContent: TOKYO });
    expect(valueOf<CallToolResult>(atlantis)).toMatchObject({ isError: true, content: [{ type: 'text', text: ATLANTIS }] });
    expect(valueOf<CallToolResult>(calculate)).toMatchObject({ isError: true, content: [{ type: 'text', text: BAD_CALCULATE }] });
    expect(valueOf<CallToolResult>(search).content[0].text.split('\n').sort()).toEqual([...BAD_SEARCH].sort());
  }

  it('a 2025 stdio client (initialize): tools good and bad, forwarded in 2025-11-25', async () => {
    const run = await bridged(SERVERS.weather, { options: { negotiation: 'legacy' }, steps: WEATHER_STEPS });
    expectWeather(run);
    expect(run.negotiated).toMatchObject({ era: 'legacy', version: '2025-11-25' });
  });

  it('a stdio client in auto mode: tools good and bad, its requests forwarded in 2026-07-28', async () => {
    const run = await bridged(SERVERS.weather, { options: { negotiation: 'auto' }, steps: WEATHER_STEPS });
    expectWeather(run);
    expect(run.negotiated).toMatchObject({ era: 'modern', version: '2026-07-28' });
    // mcp-remote's own behaviour: each mcp-remote process opens a 2025-11-25 session of its own as it
    // starts (initialize, before the stdio client says anything), then forwards the client's
    // messages as they are, so a 2026-07-28 client's requests still arrive as 2026-07-28 requests
    // (each answered on its own; the session goes unused). The SDK client in auto mode starts the
    // bridge twice: a throwaway process for the server/discover probe, then the session's.
    const { methods } = run.negotiated;
    expect(methods.filter((m) => m === 'initialize')).toHaveLength(2);
    expect(methods).toContain('server/discover');
    expect(methods.slice(-5)).toEqual(['tools/list', 'tools/call', 'tools/call', 'tools/call', 'tools/call']);
  });

  it('resources and prompts through the bridge (the full example)', async () => {
    const { outcomes, negotiated } = await bridged(SERVERS.full, { options: { negotiation: 'legacy' }, steps: FULL_STEPS });
    const [resources, book, missing, prompts, prompt, badPrompt] = outcomes;
    expect(valueOf<{ uri: string }[]>(resources).map((r) => r.uri)).toEqual(['library://catalogue']);
    expect(valueOf<{ contents: unknown[] }>(book).contents).toMatchObject([{ uri: 'library://books/1', mimeType: 'application/json' }]);
    expect(missing).toEqual({ op: 'readResource', error: expect.stringContaining(MISSING_BOOK) });
    expect(valueOf<{ name: string }[]>(prompts).map((p) => p.name)).toEqual(['recommend']);
    expect(valueOf<{ messages: unknown[] }>(prompt).messages).toMatchObject([{ role: 'user', content: { type: 'text', text: expect.stringMatching(/^Recommend one of these science books/) } }]);
    expect(badPrompt).toEqual({ op: 'getPrompt', error: expect.stringContaining(BAD_PROMPT) });
    expect(negotiated).toMatchObject({ era: 'legacy', version: '2025-11-25' });
  });
});
