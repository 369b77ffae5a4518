/**
 * MCP Apps (SEP-1865) as third-party hosts read them, against the built examples/app (a view
 * from views/counter.html, show_counter for the model, add_to_counter and reset_counter only
 * for the view):
 * - Vercel AI SDK, @ai-sdk/mcp 2.0.99: `mcpAppClientCapabilities` declared, `splitMCPAppTools`
 *   (model-visible and app-visible tools from `_meta.ui.visibility`), `readMCPAppResource`
 *   (the view's HTML and `_meta.ui` for rendering) and the view's own `tools/call`.
 * - MCP Inspector CLI, @modelcontextprotocol/inspector 2.12.0: `--app-info --advertise-apps`
 *   reads each tool's `_meta.ui` and the view's resource (URI, visibility, MIME type, border).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHarness, SERVERS, valueOf } from './helpers/harness';
import { nodeFor } from './helpers/runDriver';

jest.setTimeout(90_000);

const VIEW = 'ui://counter/view';
const HTML = readFileSync(join(__dirname, '..', '..', 'app', 'views', 'counter.html'), 'utf8');
const INSPECTOR = join(__dirname, '..', '..', '..', 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const APP_STEPS = [
  { op: 'splitMcpAppTools' },
  { op: 'readMcpAppResource', uri: VIEW },
  { op: 'callRawTool', name: 'add_to_counter', arguments: { by: 2 } },
  { op: 'callRawTool', name: 'add_to_counter', arguments: { by: 1000 } },
] as const;

describe('Vercel AI SDK (@ai-sdk/mcp 2.0.99): its MCP App helpers', () => {
  const harness = createHarness('ai-sdk');
  afterAll(() => harness.close());

  it.each([
    ['over HTTP, 2026-07-28', 'http', {}],
    ['over stdio, 2025-11-25', 'stdio', { discovery: false }],
  ] as const)('%s: splits the tools by visibility, reads the view for rendering, and calls the view-only tool', async (_, transport, options) => {
    const plan = { options: { ...options, apps: true }, steps: APP_STEPS };
    const { outcomes } = transport === 'http' ? await harness.overHttp(SERVERS.app, plan) : await harness.overStdio(SERVERS.app, plan);
    const [split, view, added, refused] = outcomes;
    expect(valueOf(split)).toEqual({ modelVisible: ['show_counter'], appVisible: ['add_to_counter', 'reset_counter'] });
    expect(valueOf(view)).toEqual({ uri: VIEW, mimeType: 'text/html;profile=mcp-app', html: HTML, meta: { prefersBorder: true } });
    expect(valueOf<{ structuredContent: unknown }>(added).structuredContent).toEqual({ count: 2, text: 'The counter is at 2.' });
    expect(valueOf(refused)).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('- by: must be at most 100') }] });
  });

  it('without the MCP Apps capability, sees only the model tool: the view-only tools are not listed to it', async () => {
    const { outcomes } = await harness.overHttp(SERVERS.app, { steps: [{ op: 'splitMcpAppTools' }] });
    expect(valueOf(outcomes[0])).toEqual({ modelVisible: ['show_counter'], appVisible: [] });
  });
});

describe('MCP Inspector CLI (@modelcontextprotocol/inspector 2.12.0): --app-info', () => {
  const harness = createHarness('inspector');
  afterAll(() => harness.close());

  /** `mcp-inspector --cli --format json -q --advertise-apps --app-info <target> <args>`: the JSON lines it printed. */
  async function appInfo(target: string[], ...args: string[]): Promise<{ code: number | null; lines: Record<string, unknown>[] }> {
    const child = spawn(nodeFor('inspector'), [INSPECTOR, '--cli', '--format', 'json', '-q', '--advertise-apps', '--app-info', ...target, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HOME: harness.dir },
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const lines = out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    if (lines.length === 0) throw new Error(`mcp-inspector --app-info printed no JSON (exit ${code}): ${out}`);
    return { code, lines };
  }

  const expected = (toolName: string, visibility?: string[]) => ({
    hasApp: true,
    toolName,
    resourceUri: VIEW,
    ...(visibility && { visibility }),
    prefersBorder: true,
    resourceMimeType: 'text/html;profile=mcp-app',
  });

  it('over stdio: reads every tool link and the view it names (tools/list)', async () => {
    const { command, args } = harness.recordedStdio(SERVERS.app, join(harness.dir, 'stdio.jsonl'), nodeFor('inspector'));
    const { code, lines } = await appInfo([command, ...args], '--method', 'tools/list');
    expect(code).toBe(0);
    expect(lines.map((l) => l.appInfo ?? l)).toEqual([expected('show_counter'), expected('add_to_counter', ['app']), expected('reset_counter', ['app'])]);
  });

  it('over HTTP: the one tool a call would show the view for (tools/call --tool-name)', async () => {
    const proxy = await harness.proxied(SERVERS.app);
    const { code, lines } = await appInfo([proxy.url], '--method', 'tools/call', '--tool-name', 'show_counter');
    expect(code).toBe(0);
    expect(lines.map((l) => l.appInfo ?? l)).toEqual([expected('show_counter')]);
  });
});
