/**
 * The commands that talk to a server, run in-process against real stdio servers: the built
 * weather example (a Toolwright server) and a hand-rolled fixture server with exact schemas.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { memoryIo } from './helpers/memoryIo';

const WEATHER = join(__dirname, '..', '..', '..', 'examples', 'weather');
const FIXTURE = join(__dirname, 'fixtures', 'contract-server.js');

describe('call, inspect, schema and config against stdio servers', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'toolwright-commands-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const cli = async (argv: string[], cwd = WEATHER) => {
    const io = memoryIo(cwd);
    const code = await runCli(argv, io);
    return { code, stdout: io.output(), stderr: io.errors() };
  };
  const fixture = (contract: object, name = 'contract.json') => {
    writeFileSync(join(tmp, name), JSON.stringify(contract));
    return name;
  };

  it('call prints a result (exit 0), a tool error on stderr (exit 1), a protocol error (exit 3)', async () => {
    expect(await cli(['call', 'dist/server.js', 'calculate', '--args', '{"operation":"multiply","a":6,"b":7}'])).toEqual({ code: 0, stdout: '6 multiply 7 = 42\n', stderr: '' });
    expect(await cli(['call', 'dist/server.js', 'calculate', '--args', '{"operation":"divide","a":1,"b":0}'])).toEqual({
      code: 1,
      stdout: '',
      stderr: "Tool 'calculate' returned an error:\nDivision by zero: b must not be 0 when dividing.\n",
    });
    const unknown = await cli(['call', 'dist/server.js', 'get_stock_price']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain("error: tools/call 'get_stock_price' failed: Unknown tool 'get_stock_price'");
    const json = await cli(['call', 'dist/server.js', 'get_weather', '--args', '{"location":"Paris"}', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ structuredContent: { location: 'Paris', temperature: 14 } });
  });

  it.each([
    [['call', 'dist/server.js', 'calculate', '--args', '{oops'], '--args is not valid JSON'],
    [['call', 'dist/server.js', 'calculate', '--args', '[1]'], '--args must be a JSON object of named arguments, got an array.'],
    [['call', 'dist/server.js'], 'Expected <server> and <tool>'],
    [['call', 'src/server.ts', 'x'], 'src/server.ts is TypeScript. Build the project'],
    [['call', 'dist/nope.js', 'x'], 'The server entry dist/nope.js does not exist.'],
    [['schema', 'diff'], 'Expected the snapshot to compare with'],
    [['schema', 'explode'], "Unknown action 'explode'. Use 'snapshot' or 'diff'."],
    [['config', 'emacs'], "Unknown client 'emacs'. Use one of: claude, cursor, vscode."],
    [['launch'], "Unknown command 'launch'."],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const result = await cli(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('inspect lists what a client sees, every page, and --json gives the contract', async () => {
    const tools = ['a', 'b', 'c'].map((n) => ({ name: `tool_${n}`, description: `Does ${n} things well for the user.`, inputSchema: { type: 'object' } }));
    const file = fixture({ tools, prompts: [{ name: 'summarize', description: 'Summarize a text.', arguments: [{ name: 'text', required: true }] }] });
    const table = await cli(['inspect', FIXTURE, '--', join(tmp, file)]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('fixture 1.0.0: 3 tools, 0 resources, 1 prompt');
    expect(table.stdout).toContain('summarize(text)');
    const json = JSON.parse((await cli(['inspect', FIXTURE, '--json', '--', join(tmp, file)])).stdout);
    expect(json.tools.map((t: { name: string }) => t.name)).toEqual(['tool_a', 'tool_b', 'tool_c']);
  });

  it('inspect --lint exits 1 on errors and names each problem', async () => {
    const file = fixture({ tools: [{ name: 'run', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }] });
    const result = await cli(['inspect', FIXTURE, '--lint', '--', join(tmp, file)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("error   tool 'run': no description");
    expect(result.stdout).toContain("error   tool 'run' input q: no description");
    expect(result.stdout).toContain('2 errors, 1 warning');
    expect((await cli(['inspect', '--lint'])).code).toBe(0);
  });

  it('reports a server that writes non-JSON to stdout, and one that will not start (exit 3)', async () => {
    const file = fixture({ tools: [] });
    const noisy = await cli(['inspect', FIXTURE, '--', join(tmp, file), '--noisy']);
    expect(noisy.code).toBe(3);
    expect(noisy.stderr).toContain('The server wrote a line to stdout that is not JSON-RPC: "server starting...". Log to stderr');
    const crash = await cli(['inspect', FIXTURE, '--', join(tmp, 'missing.json')]);
    expect(crash.code).toBe(3);
    expect(crash.stderr).toMatch(/The server exited with code 1 before answering\. Its last words on stderr:\n[\s\S]*ENOENT/);
  });

  it('schema snapshot writes the contract; diff passes on the same server and fails on a breaking one', async () => {
    const snapshot = join(tmp, 'weather.contract.json');
    expect(await cli(['schema', 'snapshot', '--out', snapshot])).toMatchObject({ code: 0, stderr: `Wrote ${snapshot}: 4 tools, 0 resources, 0 prompts.\n` });
    const contract = JSON.parse(readFileSync(snapshot, 'utf8'));
    expect(contract.tools.map((t: { name: string }) => t.name)).toEqual(['calculate', 'get_time', 'get_weather', 'search_notes']);
    expect(await cli(['schema', 'diff', snapshot])).toMatchObject({ code: 0, stdout: 'No changes: the served contract matches the snapshot.\n' });

    // The same contract served without get_time and with a narrower calculate.
    const calculate = contract.tools.find((t: { name: string }) => t.name === 'calculate');
    calculate.inputSchema.properties.operation.enum = ['add'];
    const file = fixture({ ...contract, tools: contract.tools.filter((t: { name: string }) => t.name !== 'get_time') }, 'changed.json');
    const diff = await cli(['schema', 'diff', snapshot, FIXTURE, '--', join(tmp, file)]);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('Breaking changes (2):');
    expect(diff.stdout).toContain(`- tool 'calculate' input operation: enum values "subtract", "multiply", "divide" removed`);
    expect(diff.stdout).toContain("- tool 'get_time': tool removed");

    writeFileSync(join(tmp, 'bad.json'), '{"tools": 1}');
    expect((await cli(['schema', 'diff', join(tmp, 'bad.json')])).stderr).toContain("is not a contract written by 'toolwright schema snapshot'");
  });

  it('config prints a snippet per client', async () => {
    const vscode = await cli(['config', 'vscode']);
    expect(JSON.parse(vscode.stdout)).toEqual({ servers: { weather: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/dist/server.js'] } } });
    const cursor = await cli(['config', 'cursor', '--url', 'https://mcp.example.com/mcp', '--name', 'wx']);
    expect(JSON.parse(cursor.stdout)).toEqual({ mcpServers: { wx: { url: 'https://mcp.example.com/mcp' } } });
  });

  it('every command has --help, and the main help lists them with the exit codes', async () => {
    const main = await cli(['--help']);
    for (const command of ['new', 'dev', 'call', 'inspect', 'schema', 'config']) {
      expect(main.stdout).toContain(`  ${command} `);
      const help = await cli([command, '--help']);
      expect(help).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toMatch(/^Usage: toolwright /);
      expect(help.stdout).toContain('Exit codes:');
    }
    expect(main.stdout).toContain('3  the server could not be started or answered with a protocol error');
  });
});
