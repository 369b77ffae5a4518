/**
 * The MCP Inspector's CLI, @modelcontextprotocol/inspector 2.12.0 (engines: Node >= 22.19, so it runs
 * on the pinned Node 22), from node_modules: `mcp-inspector --cli <server command | URL> --method ...`,
 * one process per method, as a shell script or a CI job would use it. `--protocol-era legacy | modern |
 * auto` picks the era (ad-hoc targets default to legacy).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createHarness, SERVERS } from './helpers/harness';
import { negotiatedEra, readStdioLog, type Negotiated, type RecordedMessage } from './helpers/negotiatedEra';
import { nodeFor } from './helpers/runDriver';
import { ATLANTIS, BAD_PROMPT, BAD_SEARCH, MISSING_BOOK, TOKYO, WEATHER_TOOLS } from './helpers/plans';

jest.setTimeout(180_000);

const INSPECTOR = join(__dirname, '..', '..', '..', 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');

/** What one CLI run printed: its exit code and the JSON it wrote (the result on stdout, or the error envelope on stderr). */
interface CliRun {
  readonly code: number | null;
  readonly json: { result?: Record<string, unknown>; error?: { code: string; message: string } }[];
}

type Era = 'legacy' | 'modern' | 'auto' | undefined;

describe('MCP Inspector CLI (@modelcontextprotocol/inspector 2.12.0)', () => {
  const harness = createHarness('inspector');
  afterAll(() => harness.close());
  let logs = 0;

  /** Runs `mcp-inspector --cli --format json -q [--protocol-era era] <target> <args>`; HOME is the scratch folder (it keeps a catalog there). */
  async function inspect(era: Era, target: string[], ...args: string[]): Promise<CliRun> {
    const eraFlag = era ? ['--protocol-era', era] : [];
    const child = spawn(nodeFor('inspector'), [INSPECTOR, '--cli', ...eraFlag, '--format', 'json', '-q', ...target, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HOME: harness.dir },
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const json = out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as CliRun['json'][number]);
    if (json.length === 0) throw new Error(`mcp-inspector --cli ${args.join(' ')} printed no JSON (exit ${code}): ${out}`);
    return { code, json };
  }

  /** Where one CLI run connects, and afterwards what the server saw of that run. */
  type Connection = () => { target: string[]; records: () => RecordedMessage[] };

  /** The weather example's calls through the CLI, one process each; returns the era each run negotiated. */
  async function weatherCalls(era: Era, connect: Connection, all = true): Promise<Negotiated[]> {
    const eras: Negotiated[] = [];
    const run = async (...args: string[]) => {
      const connection = connect();
      const result = await inspect(era, connection.target, ...args);
      eras.push(negotiatedEra(connection.records()));
      return result;
    };
    const list = await run('--method', 'tools/list');
    expect(list.code).toBe(0);
    expect((list.json[0].result!.tools as { name: string }[]).map((tool) => tool.name)).toEqual(WEATHER_TOOLS);

    const calculate = await run('--method', 'tools/call', '--tool-name', 'calculate', '--tool-args-json', '{"operation":"pow"}');
    expect(calculate.code).toBe(5);
    expect(calculate.json[0].result).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: ["Invalid arguments for tool 'calculate':", '- a: is required', '- b: is required', '- operation: must be one of: "add", "subtract", "multiply", "divide" (got "pow")'].join('\n'),
        },
      ],
    });
    if (!all) return eras;

    const tokyo = await run('--method', 'tools/call', '--tool-name', 'get_weather', '--tool-args-json', '{"location":"Tokyo"}');
    expect(tokyo.code).toBe(0);
    expect(tokyo.json[0].result).toMatchObject({ structuredContent: TOKYO });

    // An isError result: printed in full on stdout, then an error envelope, exit 5.
    const atlantis = await run('--method', 'tools/call', '--tool-name', 'get_weather', '--tool-args-json', '{"location":"Atlantis"}');
    expect(atlantis.code).toBe(5);
    expect(atlantis.json[0].result).toMatchObject({ isError: true, content: [{ type: 'text', text: ATLANTIS }] });
    expect(atlantis.json[1].error).toEqual({ code: 'tool_is_error', message: "Tool 'get_weather' returned isError:true." });

    const search = await run('--method', 'tools/call', '--tool-name', 'search_notes', '--tool-args-json', JSON.stringify({ query: 'x', filters: { tags: ['a', 7], extra: 1 }, limit: 0 }));
    expect(search.code).toBe(5);
    expect((search.json[0].result!.content as { text: string }[])[0].text.split('\n').sort()).toEqual([...BAD_SEARCH].sort());
    return eras;
  }

  /** The weather example over stdio: each CLI run starts it behind a recorder of its own. */
  const overStdio: Connection = () => {
    const log = join(harness.dir, `inspector-${++logs}.jsonl`);
    const { command, args } = harness.recordedStdio(SERVERS.weather, log);
    return { target: [command, ...args], records: () => readStdioLog(log) };
  };

  /** The weather example over HTTP behind one recording proxy; each run sees the requests it made. */
  async function overHttp(): Promise<Connection> {
    const proxy = await harness.proxied(SERVERS.weather);
    return () => {
      const from = proxy.records.length;
      return { target: [proxy.url], records: () => proxy.records.slice(from) };
    };
  }

  it.each([
    ['no --protocol-era (the default)', undefined, 'legacy', '2025-11-25'],
    ['--protocol-era modern', 'modern', 'modern', '2026-07-28'],
  ] as const)('stdio, %s: lists, calls good and bad, every run in %s %s', async (_label, flag, era, version) => {
    const eras = await weatherCalls(flag, overStdio);
    expect(eras).toEqual(Array(5).fill(expect.objectContaining({ era, version })));
  });

  it('stdio, --protocol-era auto: probes server/discover and stays in 2026-07-28', async () => {
    const eras = await weatherCalls('auto', overStdio, false);
    expect(eras).toEqual(Array(2).fill(expect.objectContaining({ era: 'modern', version: '2026-07-28', methods: expect.arrayContaining(['server/discover']) })));
  });

  it.each([
    ['no --protocol-era (the default)', undefined, 'legacy', '2025-11-25'],
    ['--protocol-era modern', 'modern', 'modern', '2026-07-28'],
  ] as const)('Streamable HTTP, %s: lists, calls good and bad, every run in %s %s', async (_label, flag, era, version) => {
    const eras = await weatherCalls(flag, await overHttp());
    expect(eras).toEqual(Array(5).fill(expect.objectContaining({ era, version })));
  });

  it('reads resources and gets prompts, with their errors (the full example over HTTP, 2026-07-28)', async () => {
    const proxy = await harness.proxied(SERVERS.full);
    const target = [proxy.url];
    const resources = await inspect('modern', target, '--method', 'resources/list');
    expect((resources.json[0].result!.resources as { uri: string }[]).map((r) => r.uri)).toEqual(['library://catalogue']);
    const book = await inspect('modern', target, '--method', 'resources/read', '--uri', 'library://books/1');
    expect(book.json[0].result).toMatchObject({ contents: [{ uri: 'library://books/1', mimeType: 'application/json' }] });
    const missing = await inspect('modern', target, '--method', 'resources/read', '--uri', 'library://books/999');
    expect(missing).toEqual({ code: 1, json: [{ error: { code: 'error', message: MISSING_BOOK } }] });
    const prompt = await inspect('modern', target, '--method', 'prompts/get', '--prompt-name', 'recommend', '--prompt-args', 'genre=science');
    expect(prompt.json[0].result).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: expect.stringMatching(/^Recommend one of these science books/) } }] });
    const badPrompt = await inspect('modern', target, '--method', 'prompts/get', '--prompt-name', 'recommend', '--prompt-args', 'genre=poetry');
    expect(badPrompt).toEqual({ code: 1, json: [{ error: { code: 'error', message: BAD_PROMPT } }] });
    expect(negotiatedEra(proxy.records)).toMatchObject({ era: 'modern', version: '2026-07-28' });
  });

  it('client defect, written down: --tool-args-json is documented as verbatim, yet a string is coerced to the schema type before it is sent', async () => {
    // `mcp-inspector --cli --help` says of --tool-args-json: "Values are passed verbatim — no
    // key=value coercion". 2.12.0 still converts "2" to 2 for a `number` property, so the server
    // never sees the string and cannot name it. Reported for the web form's raw-JSON editor as
    // https://github.com/modelcontextprotocol/inspector/issues/2171 (same conversion,
    // InspectorClient.callTool -> convertToolParameters); the CLI path shares it. When a release
    // sends the string as written, the server's answer gains "- a: must be a number (got string "2")".
    const t = overStdio();
    const run = await inspect('legacy', t.target, '--method', 'tools/call', '--tool-name', 'calculate', '--tool-args-json', '{"operation":"pow","a":"2"}');
    const sent = t.records().find((r) => r.from === 'client' && r.message.method === 'tools/call');
    expect((sent!.message.params as { arguments?: unknown }).arguments).toEqual({ operation: 'pow', a: 2 });
    expect((run.json[0].result!.content as { text: string }[])[0].text).not.toContain('- a:');
  });
});
