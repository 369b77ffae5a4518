/**
 * The commands that talk to a server, run in-process against real stdio servers: the built
 * weather example (a Toolwright server) and a hand-rolled fixture server with exact schemas.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateProject, runCli } from '@toolwright/cli';
import { writeProject } from '../src/generate/writeProject';
import { listeningUrl } from './helpers/listeningUrl';
import { memoryIo } from './helpers/memoryIo';

const WEATHER = join(__dirname, '..', '..', '..', 'examples', 'weather');
const FIXTURE = join(__dirname, 'fixtures', 'contract-server.js');
// Several tests start a server per CLI run, a few runs in a row: slow on a busy machine.
jest.setTimeout(120_000);
const FULL = join(WEATHER, '..', 'full');
const HTTP = join(WEATHER, '..', 'http');
const CONFORMANCE = join(WEATHER, '..', 'conformance');
const REPO = join(WEATHER, '..', '..');

describe('call, inspect, schema and config against stdio and HTTP servers', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'toolwright-commands-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const cli = async (argv: string[], cwd = WEATHER, env: NodeJS.ProcessEnv = {}) => {
    const io = { ...memoryIo(cwd), env };
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
    expect(unknown.stderr).toContain("error: tools/call 'get_stock_price' failed: the server serves no tool 'get_stock_price'. It serves 4 tools: ");
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

  // Issue 30 #6: schema diff against a stale build said only "No changes".
  it('schema diff warns when src/ is newer than the build it reads', async () => {
    const project = join(tmp, 'stale');
    mkdirSync(join(project, 'src'), { recursive: true });
    mkdirSync(join(project, 'dist'));
    writeFileSync(join(project, 'package.json'), '{ "main": "dist/server.js" }');
    writeFileSync(join(project, 'dist', 'server.js'), 'process.exit(0);\n');
    writeFileSync(join(project, 'src', 'server.ts'), '');
    utimesSync(join(project, 'dist', 'server.js'), 1000, 1000);
    utimesSync(join(project, 'src', 'server.ts'), 2000, 2000);
    writeFileSync(join(project, 'contract.json'), JSON.stringify({ contractVersion: 1, tools: [], resources: [], resourceTemplates: [], prompts: [] }));
    const result = await cli(['schema', 'diff', 'contract.json'], project);
    expect(result.stderr).toContain(
      "Warning: src/server.ts changed after the last build (dist/server.js and the files beside it are older), so this reads the previous build. Run 'npm run build' first.",
    );
  });

  // Issue 30 #9.
  it("points to --verbose when a tool's internal error says the server log has the details", async () => {
    // A real server: the built packages, a tool that throws an unexpected error.
    const file = join(tmp, 'broken-server.js');
    writeFileSync(
      file,
      `require(${JSON.stringify(require.resolve('reflect-metadata'))});
const { Tool } = require(${JSON.stringify(join(WEATHER, '..', '..', 'packages/core'))});
const { createApp } = require(${JSON.stringify(join(WEATHER, '..', '..', 'packages/server'))});
class Broken { boom() { throw new Error('database password rejected'); } }
Tool({ description: 'Always fails.' })(Broken.prototype, 'boom');
createApp({ name: 'broken', version: '1.0.0', tools: [Broken] }).then((app) => app.listen({ transport: 'stdio' }));
`,
    );
    const quiet = await cli(['call', file, 'boom'], tmp);
    expect(quiet.code).toBe(1);
    expect(quiet.stderr).toMatch(/log has the details/);
    expect(quiet.stderr).toContain("Run again with --verbose to see the server's log (its stderr).");
    const verbose = await cli(['call', file, 'boom', '--verbose'], tmp);
    expect(verbose.stderr).toContain('database password rejected');
    expect(verbose.stderr).not.toContain('Run again with --verbose');
  }, 60_000);

  it('inspect --lint exits 1 on errors and names each problem', async () => {
    const file = fixture({ tools: [{ name: 'run', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }] });
    const result = await cli(['inspect', FIXTURE, '--lint', '--', join(tmp, file)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("error   tool 'run': no description");
    expect(result.stdout).toContain("error   tool 'run' input q: no description");
    expect(result.stdout).toContain('2 errors, 1 warning');
    // It says what it cannot see, and where that is checked (issue 30).
    expect(result.stdout).toContain('run `npm run lint` (@toolwright/eslint-plugin)');
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

  it('call answers elicitation from --field, --elicit (inline or a file) and --decline; cancels when nothing answers', async () => {
    const reserve = (...flags: string[]) => cli(['call', 'dist/server.js', 'reserve_book', '--args', '{"bookId":2}', ...flags], FULL);
    expect(await reserve('--field', 'branch=harbour')).toMatchObject({ code: 0, stdout: "Reserved 'A Brief History of Time' for pickup at the harbour branch.\n" });
    expect((await reserve('--elicit', '{"branch":"central"}')).stdout).toContain('at the central branch');
    writeFileSync(join(tmp, 'answers.json'), '[{"action":"accept","content":{"branch":"university"}}]');
    expect((await reserve('--elicit', `@${join(tmp, 'answers.json')}`)).stdout).toContain('at the university branch');
    expect((await reserve('--decline')).stdout).toBe('Nothing reserved: the user chose to decline.\n');
    const unanswered = await reserve();
    expect(unanswered.stdout).toBe('Nothing reserved: the user chose to cancel.\n');
    expect(unanswered.stderr).toContain("The server asks: Where do you want to pick up 'A Brief History of Time'?\nNo answer was given, so the request was cancelled. Pass --elicit");
  });

  // The question was written to stdout, into the result: 'toolwright call ... --json > out.json' wrote a file that was not JSON.
  it('call asks the question on a terminal, on stderr: stdout carries only the result', async () => {
    const io = memoryIo(FULL, { interactive: true, input: 'university\n' });
    expect(await runCli(['call', 'dist/server.js', 'reserve_book', '--args', '{"bookId":1}'], io)).toBe(0);
    expect(io.errors()).toContain('? Branch (Where to pick the book up) [central, harbour, university]');
    expect(io.output()).toBe("Reserved 'Dune' for pickup at the university branch.\n");

    const json = memoryIo(FULL, { interactive: true, input: 'harbour\n' });
    expect(await runCli(['call', 'dist/server.js', 'reserve_book', '--args', '{"bookId":1}', '--json'], json)).toBe(0);
    expect(json.errors()).toContain('? Branch (Where to pick the book up)');
    expect(JSON.parse(json.output())).toMatchObject({ content: [{ type: 'text', text: "Reserved 'Dune' for pickup at the harbour branch." }] });
  });

  // Ctrl-D at the question printed readline's AbortError with its stack and exited 70; an input that had ended waited forever.
  it('call cancels the question when the terminal input is closed before the answer', async () => {
    const io = memoryIo(FULL, { interactive: true, input: '' });
    expect(await runCli(['call', 'dist/server.js', 'reserve_book', '--args', '{"bookId":1}'], io)).toBe(0);
    expect(io.errors()).toMatch(/\? Branch \(Where to pick the book up\) .*The input was closed before the answer, so the request was cancelled\.\n/);
    expect(io.output()).toBe('Nothing reserved: the user chose to cancel.\n');
  });

  it('call answers sampling with --sample, and says how when it cannot', async () => {
    const sample = (...flags: string[]) => cli(['call', 'dist/server.js', 'test_sampling', '--args', '{"prompt":"Say hi"}', ...flags], CONFORMANCE);
    const answered = await sample('--sample', 'Hi there');
    expect(answered).toMatchObject({ code: 0 });
    expect(answered.stdout).toContain('Hi there');
    const unanswered = await sample();
    expect(unanswered.code).toBe(1);
    expect(unanswered.stderr).toContain("toolwright has no model to answer a sampling request: pass --sample '<reply>'.");
  });

  it('call --protocol 2025-11-25 keeps to the 2025 handshake, elicitation included', async () => {
    const legacy = await cli(['call', 'dist/server.js', 'reserve_book', '--args', '{"bookId":3}', '--protocol', '2025-11-25', '--field', 'branch=central'], FULL);
    expect(legacy).toMatchObject({ code: 0, stdout: "Reserved 'The Guns of August' for pickup at the central branch.\n" });
  });

  it('call reads a resource and gets a prompt', async () => {
    const book = await cli(['call', 'dist/server.js', '--resource', 'library://books/2'], FULL);
    expect(JSON.parse(book.stdout)).toMatchObject({ id: 2, title: 'A Brief History of Time' });
    const missing = await cli(['call', 'dist/server.js', '--resource', 'library://books/99'], FULL);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain("resources/read 'library://books/99' failed: There is no book 99.");
    const prompt = await cli(['call', 'dist/server.js', '--prompt', 'recommend', '--args', '{"genre":"history"}'], FULL);
    expect(prompt.stdout).toMatch(/^user: Recommend one of these history books/);
  });

  // On a server without resources, --resource said only "Method not found (JSON-RPC error -32601)".
  it('call --resource (or --prompt) on a server that serves none says so, lists what it serves, and exits 3', async () => {
    const tools = 'It serves 4 tools: get_weather, calculate, get_time, search_notes; no prompts. See everything it serves: toolwright inspect dist/server.js';
    const resource = await cli(['call', 'dist/server.js', '--resource', 'weather://tokyo']);
    expect(resource).toEqual({
      code: 3,
      stdout: '',
      stderr: `error: resources/read 'weather://tokyo' was not sent. The server weather 0.1.0 serves no resources (its capabilities declare none). ${tools}\n`,
    });
    const prompt = await cli(['call', 'dist/server.js', '--prompt', 'forecast']);
    expect(prompt).toMatchObject({
      code: 3,
      stderr:
        "error: prompts/get 'forecast' was not sent. The server weather 0.1.0 serves no prompts (its capabilities declare none). It serves 4 tools: get_weather, calculate, get_time, search_notes; no resources. See everything it serves: toolwright inspect dist/server.js\n",
    });
  });

  it('call, inspect and schema snapshot reach a Streamable HTTP server by URL, with headers and a bearer token', async () => {
    const server = spawn(process.execPath, [join(HTTP, 'dist', 'server.js'), '--http', '--port', '0'], {
      cwd: HTTP,
      env: { ...process.env, MCP_TOKENS: 's3cret=ci' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const url = await listeningUrl(server);
      const add = await cli(['call', url, 'add_task', '--header', 'X-Trace: e2e', '--args', '{"title":"Ship it"}'], tmp, { TOOLWRIGHT_BEARER: 's3cret' });
      expect(add.code).toBe(0);
      expect(JSON.parse(add.stdout)).toMatchObject({ title: 'Ship it', owner: 'ci' });
      const inspect = await cli(['inspect', url, '--header', 'Authorization: Bearer s3cret'], tmp);
      expect(inspect.stdout).toContain('add_task');
      const snapshot = JSON.parse((await cli(['schema', 'snapshot', url, '--bearer-env', 'TASKS_TOKEN'], tmp, { TASKS_TOKEN: 's3cret' })).stdout);
      expect(snapshot.tools.map((t: { name: string }) => t.name)).toContain('add_task');
      const refused = await cli(['call', url, 'add_task', '--args', '{"title":"x"}'], tmp, { TOOLWRIGHT_BEARER: 'wrong' });
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain(url);
    } finally {
      server.kill();
    }
  });

  // Issue 31 #12: the http template served every caller without a token when MCP_TOKENS was unset.
  it('the http project fails closed: without MCP_TOKENS its HTTP server refuses to start, unless MCP_ALLOW_ANONYMOUS=1', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.MCP_TOKENS;
    delete env.MCP_ALLOW_ANONYMOUS;
    const refused = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(HTTP, 'dist', 'server.js'), '--http', '--port', '0'], { cwd: HTTP, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('exit', (code) => resolve({ code, stderr }));
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('MCP_TOKENS is not set, so the HTTP server would let every caller in without a token: it does not start.');
    expect(refused.stderr).not.toContain('"msg":"listening"');

    const open = spawn(process.execPath, [join(HTTP, 'dist', 'server.js'), '--http', '--port', '0'], { cwd: HTTP, env: { ...env, MCP_ALLOW_ANONYMOUS: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const url = await listeningUrl(open);
      const add = await cli(['call', url, 'add_task', '--args', '{"title":"Anonymous"}'], tmp);
      expect(add.code).toBe(0);
      expect(JSON.parse(add.stdout)).toMatchObject({ title: 'Anonymous', owner: 'anonymous' });
    } finally {
      open.kill();
    }
  });

  it.each([
    [['call', 'http://127.0.0.1:1/mcp', 'x', '--', '--port', '3'], "Server arguments after '--' only apply when toolwright starts the server"],
    [['call', 'dist/server.js', 'x', '--bearer-env', 'T'], '--header and --bearer-env apply to a server URL'],
    [['call', 'http://127.0.0.1:1/mcp', 'x', '--header', 'nocolon'], "--header 'nocolon' is not 'Name: value'"],
    [['call', 'dist/server.js', 'x', '--field', 'novalue'], "--field 'novalue' is not name=value"],
    [['call', 'dist/server.js', 'x', '--resource', 'a://b'], 'Call a tool, or pass --resource, or --prompt: one at a time.'],
    [['call', 'dist/server.js', 'x', '--protocol', '2024-11-05'], "Unknown --protocol '2024-11-05'. Use auto, 2025-11-25 or 2026-07-28."],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const result = await cli(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  // The oauth template printed that it listens twice: app.listen() logged it, then its server.ts printed `listening on <url>`.
  it('the oauth project says once that it listens', async () => {
    const dir = mkdtempSync(join(tmp, 'oauth-'));
    symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const files = generateProject({ template: 'oauth', transport: 'http', packageName: 'oauth-once', toolwrightVersion: '0.0.0', workspaceRoot: REPO });
    await writeProject(
      dir,
      files.filter((f) => f.path === 'tsconfig.json' || f.path.startsWith('src/')),
    );
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'oauth-once', private: true, type: 'commonjs', main: 'dist/server.js' }));
    const build = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
    expect({ status: build.status, output: build.stdout }).toEqual({ status: 0, output: '' });

    const server = spawn(process.execPath, [join(dir, 'dist', 'server.js'), '--http', '--port', '0'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    server.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      await listeningUrl(server);
      // Whatever server.ts does after listen() resolves runs before the signal is handled.
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
      expect(stderr.match(/listening/g)).toEqual(['listening']);
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('config prints a snippet per client', async () => {
    const vscode = await cli(['config', 'vscode']);
    expect(JSON.parse(vscode.stdout)).toEqual({ servers: { weather: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/dist/server.js'] } } });
    const cursor = await cli(['config', 'cursor', '--url', 'https://mcp.example.com/mcp', '--name', 'wx']);
    expect(JSON.parse(cursor.stdout)).toEqual({ mcpServers: { wx: { url: 'https://mcp.example.com/mcp' } } });
  });

  it('every command has --help, and the main help lists them with the exit codes', async () => {
    const main = await cli(['--help']);
    for (const command of ['new', 'dev', 'call', 'inspect', 'schema', 'config', 'install']) {
      expect(main.stdout).toContain(`  ${command} `);
      const help = await cli([command, '--help']);
      expect(help).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toMatch(/^Usage: toolwright /);
      expect(help.stdout).toContain('Exit codes:');
    }
    expect(main.stdout).toContain('3  the server could not be started or answered with a protocol error');
  });
});
