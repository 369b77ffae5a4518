/** `toolwright config --url/--header`: the URL passes the checks `call` makes, and headers reach each client in its own syntax. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { MCP_REMOTE_VERSION } from '../src/generate/versions';
import { memoryIo } from './helpers/memoryIo';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'toolwright-config-'));
  mkdirSync(join(tmp, 'dist'));
  writeFileSync(join(tmp, 'package.json'), JSON.stringify({ name: 'tasks', main: 'dist/server.js' }));
  writeFileSync(join(tmp, 'dist', 'server.js'), '');
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const cli = async (argv: string[]) => {
  const io = { ...memoryIo(tmp), env: {} };
  const code = await runCli(argv, io);
  return { code, stdout: io.output(), stderr: io.errors() };
};
const URL_ = 'https://mcp.example.com/mcp';
const BEARER = ['--header', 'Authorization: Bearer ${env:MCP_TOKEN}'];

describe('toolwright config --url', () => {
  it.each([
    ['javascript:alert(1)', 'A URL that starts javascript: is not a server'],
    ['file:///etc/passwd', 'A URL that starts file:// is not a server'],
    ['not a url', "'not a url' is not a valid URL."],
    ['http://user:pw@mcp.example.com/mcp', 'The URL carries a user name or password'],
  ])('refuses %s with exit 2, printing no config', async (url, message) => {
    const result = await cli(['config', 'cursor', '--url', url]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain('pw@');
  });
});

describe('toolwright config --header', () => {
  it('Cursor: headers as given, ${env:NAME} kept for Cursor to fill in', async () => {
    const result = await cli(['config', 'cursor', '--url', URL_, ...BEARER]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ mcpServers: { tasks: { url: URL_, headers: { Authorization: 'Bearer ${env:MCP_TOKEN}' } } } });
    expect(result.stderr).not.toContain('Warning');
  });

  it('VS Code: each variable becomes a secret input it asks for once', async () => {
    const result = await cli(['config', 'vscode', '--url', URL_, ...BEARER]);
    expect(JSON.parse(result.stdout)).toEqual({
      inputs: [{ type: 'promptString', id: 'MCP_TOKEN', description: 'MCP_TOKEN for tasks', password: true }],
      servers: { tasks: { type: 'http', url: URL_, headers: { Authorization: 'Bearer ${input:MCP_TOKEN}' } } },
    });
  });

  it('Claude Desktop: mcp-remote --header with ${NAME}, read from the env block, and says so', async () => {
    const result = await cli(['config', 'claude', '--url', URL_, ...BEARER]);
    expect(JSON.parse(result.stdout)).toEqual({
      mcpServers: { tasks: { command: 'npx', args: ['-y', `mcp-remote@${MCP_REMOTE_VERSION}`, URL_, '--header', 'Authorization:Bearer ${MCP_TOKEN}'], env: { MCP_TOKEN: '' } } },
    });
    expect(result.stderr).toContain('put each variable\'s value in the "env" block');
  });

  it('warns when a literal value is written into the config, without repeating it', async () => {
    const result = await cli(['config', 'cursor', '--url', URL_, '--header', 'Authorization: Bearer l3aked']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("Warning: the value of header 'Authorization' is written into the config as given");
    expect(result.stderr).not.toContain('l3aked');
  });

  it.each([
    [['config', 'cursor', '--header', 'Authorization: Bearer x'], '--header applies to an HTTP server'],
    [['config', 'cursor', '--url', URL_, '--header', 'Bad Name: x'], 'is not a header name'],
    [['config', 'cursor', '--url', URL_, '--header', 'X-A: a\r\nX-B: b'], 'has a line break'],
    [['config', 'cursor', '--url', URL_, '--header', '__proto__: x'], "--header '__proto__' cannot be sent"],
  ])('refuses %j', async (argv, message) => {
    const result = await cli(argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });

  it('install adds VS Code inputs to a file that has some, keeping them', async () => {
    const file = join(tmp, 'mcp.json');
    writeFileSync(file, JSON.stringify({ inputs: [{ type: 'promptString', id: 'OTHER' }], servers: {} }));
    expect((await cli(['install', 'vscode', '--file', file, '--url', URL_, ...BEARER])).code).toBe(0);
    expect((await cli(['install', 'vscode', '--file', file, '--url', URL_, ...BEARER])).code).toBe(0);
    const written = JSON.parse(readFileSync(file, 'utf8')) as { inputs: { id: string }[] };
    expect(written.inputs.map((i) => i.id)).toEqual(['OTHER', 'MCP_TOKEN']);
  });
});
