import 'reflect-metadata';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { createApp } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { createTestClient } from '@toolwright/server/testing';
import { base64Header } from './fixtures/base64Header';
import { HeaderTools } from './fixtures/header.tools';
import { readAnswer } from './fixtures/readAnswer';

/**
 * Mcp-Param headers (SEP-2243): Toolwright's check against the SDK's. The SDK validates the
 * headers only for the tools of its `McpServer` (behind `createMcpHandler`), and Toolwright
 * serves its tools through the low-level `Server`, so it checks them itself. Here both serve
 * the same tools with the same input schemas (Toolwright's, as `tools/list` gives them, handed
 * to an `McpServer` through `fromJsonSchema`), and a generated set of 2026-07-28 `tools/call`
 * requests (headers that agree and disagree with the body, plain and Base64, missing,
 * duplicated, in other letter cases; with and without the standard headers) must get the same
 * HTTP status and JSON-RPC error code from both.
 */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Case {
  readonly title: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** Header name and value pairs, repeated names kept (a duplicated header). */
  readonly headers: readonly (readonly [string, string])[];
  /** Standard headers left out. */
  readonly without?: readonly string[];
}

/** The generated requests: each value form against each header form, for each declared parameter. */
function cases(): Case[] {
  const out: Case[] = [];
  const add = (title: string, tool: string, args: Record<string, unknown>, headers: (readonly [string, string])[], without?: string[]) => out.push({ title, tool, args, headers, without });
  const strings = ['us-west-1', 'Zürich', ' padded ', '', '日本', 'a,b', '=?base64?', 'line\tbreak'];
  for (const value of strings) {
    // A header value is bytes (Latin-1 at most): text beyond it travels only in Base64.
    const sendable = [...value].every((c) => c.charCodeAt(0) <= 0xff);
    if (sendable) add(`Region ${JSON.stringify(value)} plain`, 'run_job', { region: value }, [['Mcp-Param-Region', value]]);
    add(`Region ${JSON.stringify(value)} base64`, 'run_job', { region: value }, [['Mcp-Param-Region', base64Header(value)]]);
    add(`Region ${JSON.stringify(value)} other value`, 'run_job', { region: value }, [['Mcp-Param-Region', sendable ? `${value}x` : base64Header(`${value}x`)]]);
  }
  const raw = Buffer.from('Zürich', 'utf8').toString('base64');
  for (const header of [
    `=?base64?${raw.replace(/=+$/, '')}?=`, // unpadded
    `=?base64?${raw}==?=`, // over-padded
    `=?base64?${raw.slice(0, 3)}*${raw.slice(4)}?=`, // a character outside the alphabet
    `=?base64?${Buffer.from('a>?', 'utf8').toString('base64url')}?=`, // the URL-safe alphabet
    `=?BASE64?${raw}?=`, // another case of the sentinel
    `=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`, // not UTF-8
    '=?base64?=', // the sentinel's two halves overlapping
    '=?base64??=', // an empty payload
    `=?base64?${raw}`, // no closing half
  ]) {
    add(`Region Zürich as ${header}`, 'run_job', { region: 'Zürich' }, [['Mcp-Param-Region', header]]);
  }
  for (const [value, header] of [
    [42, '42'],
    [42, '42.0'],
    [42, '042'],
    [42, '4.2e1'],
    [42, '+42'],
    [0, '-0'],
    [42, base64Header('42')],
    [42, '43'],
    [-7, '-7'],
  ] as const) {
    add(`Priority ${value} as ${header}`, 'run_job', { region: 'eu', priority: value }, [
      ['Mcp-Param-Region', 'eu'],
      ['Mcp-Param-Priority', header],
    ]);
  }
  for (const [value, header] of [
    [true, 'true'],
    [true, 'TRUE'],
    [true, '1'],
    [false, 'false'],
    [false, base64Header('false')],
  ] as const) {
    add(`Urgent ${value} as ${header}`, 'run_job', { region: 'eu', urgent: value }, [
      ['Mcp-Param-Region', 'eu'],
      ['Mcp-Param-Urgent', header],
    ]);
  }
  // Missing, absent from the body, null, duplicated, other letter cases of the name.
  add('Region missing', 'run_job', { region: 'eu' }, []);
  add('Priority missing while the body has it', 'run_job', { region: 'eu', priority: 1 }, [['Mcp-Param-Region', 'eu']]);
  add('Priority sent, the body without it', 'run_job', { region: 'eu' }, [
    ['Mcp-Param-Region', 'eu'],
    ['Mcp-Param-Priority', '9'],
  ]);
  add('Priority null in the body, header sent', 'run_job', { region: 'eu', priority: null }, [
    ['Mcp-Param-Region', 'eu'],
    ['Mcp-Param-Priority', '9'],
  ]);
  add('Region duplicated, same value', 'run_job', { region: 'eu' }, [
    ['Mcp-Param-Region', 'eu'],
    ['Mcp-Param-Region', 'eu'],
  ]);
  add('Region duplicated, two values', 'run_job', { region: 'eu' }, [
    ['Mcp-Param-Region', 'eu'],
    ['Mcp-Param-Region', 'us'],
  ]);
  add('Region duplicated, joined value', 'run_job', { region: 'eu, us' }, [
    ['Mcp-Param-Region', 'eu'],
    ['Mcp-Param-Region', 'us'],
  ]);
  add('header name in lower case', 'run_job', { region: 'eu' }, [['mcp-param-region', 'eu']]);
  add('header name in upper case', 'run_job', { region: 'eu' }, [['MCP-PARAM-REGION', 'eu']]);
  add('value in another case', 'run_job', { region: 'eu' }, [['Mcp-Param-Region', 'EU']]);
  add('a number where the schema says string', 'run_job', { region: 42 }, [['Mcp-Param-Region', '42.0']]);
  add('a string where the schema says integer', 'run_job', { region: 'eu', priority: '42' }, [
    ['Mcp-Param-Region', 'eu'],
    ['Mcp-Param-Priority', '42.0'],
  ]);
  add('arguments not an object', 'run_job', ['eu'] as never, [['Mcp-Param-Region', 'x']]);
  add('DTO property agrees', 'route', { tenant: 'acme' }, [['Mcp-Param-Tenant', 'acme']]);
  add('DTO property disagrees', 'route', { tenant: 'acme' }, [['Mcp-Param-Tenant', 'other']]);
  add('DTO property missing', 'route', { tenant: 'acme' }, []);
  add('unknown tool with a header', 'no_such_tool', { region: 'eu' }, [['Mcp-Param-Region', 'us']]);
  // The standard headers are checked before the parameters: a request missing one, or naming another tool, is refused for that.
  for (const without of ['mcp-name', 'mcp-method', 'mcp-protocol-version']) {
    add(`without ${without}, headers agreeing`, 'run_job', { region: 'eu' }, [['Mcp-Param-Region', 'eu']], [without]);
    add(`without ${without}, a header disagreeing`, 'run_job', { region: 'eu' }, [['Mcp-Param-Region', 'us']], [without]);
  }
  add('Mcp-Name naming another tool, a header disagreeing', 'run_job', { region: 'eu' }, [
    ['Mcp-Param-Region', 'us'],
    ['Mcp-Name', 'route'],
  ]);
  add('Mcp-Name in Base64, a header disagreeing', 'run_job', { region: 'eu' }, [
    ['Mcp-Param-Region', 'us'],
    ['Mcp-Name', base64Header('run_job')],
  ]);
  return out;
}

function requestOf(c: Case, id: number): Request {
  const headers = new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' });
  if (!c.headers.some(([name]) => name.toLowerCase() === 'mcp-name')) headers.set('mcp-name', c.tool);
  for (const [name, value] of c.headers) headers.append(name, value);
  for (const name of c.without ?? []) headers.delete(name);
  const body = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: c.tool, arguments: c.args, _meta: ENVELOPE } };
  return new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
}

/** What is compared: the HTTP status, and the JSON-RPC error code (or that a result came). */
async function outcome(response: Response): Promise<{ status: number; answer: number | 'result' }> {
  const { status, body } = await readAnswer<{ error?: { code: number } }>(response);
  return { status, answer: body.error ? body.error.code : 'result' };
}

describe('Mcp-Param headers: Toolwright against the SDK (createMcpHandler with an McpServer of the same tools)', () => {
  let toolwright: FetchHandler;
  let sdk: ReturnType<typeof createMcpHandler>;
  beforeAll(async () => {
    const app = await createApp({ name: 'headers', version: '1.0.0', tools: [HeaderTools] });
    const client = await createTestClient(app, { protocol: '2026-07-28' });
    const { tools } = await client.listTools();
    await client.close();
    toolwright = createFetchHandler(app, { logError: () => undefined });
    sdk = createMcpHandler(
      () => {
        const server = new McpServer({ name: 'headers', version: '1.0.0' });
        for (const tool of tools) {
          server.registerTool(tool.name, { description: tool.description, inputSchema: fromJsonSchema(tool.inputSchema as never) }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
        }
        return server;
      },
      { legacy: 'reject', onerror: () => undefined },
    );
  });
  afterAll(async () => {
    await toolwright.close();
    await sdk.close();
  });

  const all = cases();
  it(`generates the cases (${all.length})`, () => expect(all.length).toBeGreaterThan(60));

  it.each(all.map((c, i) => [c.title, c, i] as const))('%s', async (_, c, i) => {
    const ours = await outcome(await toolwright(requestOf(c, i + 1)));
    const theirs = await outcome(await sdk.fetch(requestOf(c, i + 1)));
    expect(ours).toEqual(theirs);
  });
});
