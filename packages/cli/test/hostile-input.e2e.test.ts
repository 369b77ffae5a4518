/**
 * Hostile input on the command line, run as a user runs it: the built `toolwright` and
 * `create-toolwright` binaries in child processes. Every refusal is one line on stderr, exit 2,
 * before anything is written or sent; nothing here installs anything.
 */
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, transcript, type RunResult } from './helpers/run';

const TOOLWRIGHT = join(__dirname, '..', 'bin', 'toolwright.js');
const CREATE = join(__dirname, '..', '..', 'create-toolwright', 'dist', 'bin.js');
const FIXTURE = join(__dirname, 'fixtures', 'contract-server.js');
jest.setTimeout(60_000);

/** A refusal: exit 2, one line on stderr that says what is wrong, no stack trace, nothing on stdout. */
function expectRefusal(r: RunResult, says: string | RegExp): void {
  expect({ code: r.code, oneLine: /^error: [^\n]+\n$/.test(r.stderr), stdout: r.stdout, transcript: transcript(r) }).toEqual({ code: 2, oneLine: true, stdout: '', transcript: expect.any(String) });
  expect(r.stderr).toMatch(says);
}

describe('toolwright new and npm create toolwright: hostile names and folders', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'toolwright-hostile-input-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const toolwright = (args: string[]) => run(process.execPath, [TOOLWRIGHT, ...args], tmp, 30_000);
  const create = (args: string[]) => run(process.execPath, [CREATE, ...args], tmp, 30_000);

  it.each([
    // npm refuses these names for new packages (validate-npm-package-name's exclusion list, special characters).
    ['node_modules', /npm reserves 'node_modules'/],
    ['favicon.ico', /npm reserves 'favicon.ico'/],
    ['my~server', /try 'my-server'/],
    // and those that were refused already
    ['MyServer', /lowercase: try 'myserver'/],
    ['my server', /try 'my-server'/],
    ['.hidden', /starting with a letter or digit: try 'hidden'/],
    ['_under', /starting with a letter or digit: try 'under'/],
    ['a'.repeat(215), /215 characters long; npm allows at most 214/],
    ['__proto__', /starting with a letter or digit/],
    ['toString', /lowercase: try 'tostring'/],
    ['$(id)', /try 'id'/],
    ['`id`', /try 'id'/],
    ['a;b', /try 'a-b'/],
    ['ünï', /use lowercase letters, digits, '-', '.' or '_'/],
    ['a\u202eb', /'a\\u202eb'.*use lowercase letters/],
  ])('refuses the folder name %j, through both binaries, and writes nothing', async (name, says) => {
    for (const r of [await toolwright(['new', name, '--registry']), await create([name, '--registry'])]) expectRefusal(r, says);
    expectRefusal(await toolwright(['new', 'x', '--name', name, '--registry']), says);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it.each(['http', 'fs'])("takes a Node.js core module's name %j: a generated project is private, and installs and runs under it", async (name) => {
    const r = await toolwright(['new', name, '--registry']);
    expect({ code: r.code, transcript: transcript(r) }).toEqual({ code: 0, transcript: expect.any(String) });
    expect(JSON.parse(readFileSync(join(tmp, name, 'package.json'), 'utf8'))).toMatchObject({ name, private: true });
  });

  it.each(['constructor', 'a/../../b', '../up'])('takes the folder %j where it points, named after its last part', async (dir) => {
    const r = await toolwright(['new', `inner/${dir}`, '--registry']);
    expect(r.code).toBe(0);
    const name = dir.split('/').pop()!;
    expect(JSON.parse(readFileSync(join(tmp, 'inner', dir, 'package.json'), 'utf8')).name).toBe(name);
  });

  it('refuses a folder that is a file, or inside one, with a one-line error instead of a stack trace', async () => {
    writeFileSync(join(tmp, 'afile'), 'mine');
    expectRefusal(await toolwright(['new', 'afile', '--registry']), /afile is not a folder: it, or a folder above it, is a file/);
    expectRefusal(await create(['afile/sub', '--registry']), /afile\/sub is not a folder/);
    expect(readdirSync(tmp)).toEqual(['afile']);
    expect(readFileSync(join(tmp, 'afile'), 'utf8')).toBe('mine');
  });

  it('with --force, refuses before writing anything when a file stands where the project needs a folder', async () => {
    mkdirSync(join(tmp, 'taken'));
    writeFileSync(join(tmp, 'taken', 'src'), 'mine');
    expectRefusal(await toolwright(['new', 'taken', '--force', '--registry']), /Cannot write the project into .*taken: 'src' is a file where the project needs a folder/);
    expect(readdirSync(join(tmp, 'taken'))).toEqual(['src']);
  });

  it('refuses a non-empty folder without --force and leaves it as it was', async () => {
    mkdirSync(join(tmp, 'taken'));
    writeFileSync(join(tmp, 'taken', 'package.json'), 'mine');
    expectRefusal(await create(['taken', '--registry']), /taken is not empty \(package.json\)\. Choose another folder, or pass --force/);
    expect(readFileSync(join(tmp, 'taken', 'package.json'), 'utf8')).toBe('mine');
  });

  it('refuses an empty folder name rather than writing into the working directory', async () => {
    expectRefusal(await toolwright(['new', '', '--registry']), /The folder is an empty string/);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it.each([
    [['new', 'x', '--template', 'constructor'], /Unknown --template 'constructor'/],
    [['new', 'x', '--template', '__proto__'], /Unknown --template '__proto__'/],
    [['new', 'x', '--transport', 'toString'], /Unknown --transport 'toString'/],
    [['new', 'x', '--template'], /argument missing. See 'toolwright new --help'/],
    [['new', 'x', '--force=yes'], /does not take an argument/],
    [['new', 'x', '--colour'], /Unknown option '--colour'/],
    // Options after '--' were dropped: 'npm create toolwright x -- -- --template http' made a minimal project.
    [['new', 'x', '--registry', '--', '--template', 'http'], /toolwright new starts no server, so it takes nothing after '--' \(got '--template'\)/],
    [['config', 'claude', '--', '--http'], /toolwright config starts no server/],
  ])('refuses %j', async (argv, says) => {
    expectRefusal(await toolwright(argv), says);
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe('toolwright call: hostile arguments are refused before anything is sent', () => {
  let tmp: string;
  let server: Server;
  let url: string;
  const requests: string[][] = [];
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'toolwright-hostile-call-'));
    writeFileSync(join(tmp, 'contract.json'), JSON.stringify({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }));
    // Records what reaches it: a request a refusal must not have made.
    server = createServer((req, res) => {
      requests.push(req.rawHeaders);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(tmp, { recursive: true, force: true });
  });
  beforeEach(() => {
    requests.length = 0;
  });

  const toolwright = (args: string[], env: NodeJS.ProcessEnv = {}) => run(process.execPath, [TOOLWRIGHT, ...args], tmp, 30_000, env);
  /** `toolwright call` on the fixture server over stdio: it echoes the arguments it got. */
  const callFixture = (args: string[]) => toolwright(['call', FIXTURE, 'echo', ...args, '--', join(tmp, 'contract.json')]);

  it.each([
    ['a value with CR LF (header injection)', 'X-Note: a\r\nInjected: s3cret-value', /--header 'X-Note': the value has a line break/],
    ['a name with CR LF', 'X\r\nInjected: b', /--header "X\\r\\nInjected" is not a header name/],
    ['a name with a space', 'Bad Name: s3cret-value', /--header "Bad Name" is not a header name/],
    ['a value beyond Latin-1', 'X-Note: s3cret-value \u4e2d', /--header 'X-Note': the value has .* a character beyond Latin-1/],
  ])('refuses a --header with %s (exit 2, not a connection failure), without quoting its value', async (_, header, says) => {
    const r = await toolwright(['call', url, 'echo', '--header', header]);
    expectRefusal(r, says);
    expect(r.stderr).not.toContain('s3cret-value');
    expect(requests).toEqual([]);
  });

  it('refuses a bearer token with a line break without quoting it', async () => {
    const r = await toolwright(['call', url, 'echo'], { TOOLWRIGHT_BEARER: 's3cret\ntoken' });
    expectRefusal(r, /The bearer token from TOOLWRIGHT_BEARER: the value has a line break/);
    expect(r.stderr).not.toContain('s3cret');
    expect(requests).toEqual([]);
  });

  it('refuses a header given twice, and a header named __proto__ (which fetch would drop); sends one named constructor', async () => {
    expectRefusal(await toolwright(['call', url, 'echo', '--header', 'X-A: 1', '--header', 'x-a: 2']), /--header 'x-a' is given twice: pass it once/);
    expectRefusal(await toolwright(['call', url, 'echo', '--header', '__proto__: polluted']), /--header '__proto__' cannot be sent: Node's fetch drops a header of that name/);
    expect(requests).toEqual([]);
    const r = await toolwright(['call', url, 'echo', '--header', 'constructor: c', '--header', 'toString: t']);
    expect(r.code).toBe(3); // the recorder is no MCP server
    expect(requests.length).toBeGreaterThan(0);
    const pairs = (raw: string[]) => raw.flatMap((name, i) => (i % 2 === 0 ? [`${name}: ${raw[i + 1]}`] : []));
    for (const raw of requests) expect(pairs(raw)).toEqual(expect.arrayContaining(['constructor: c', 'toString: t']));
  });

  it('refuses a URL with a user name and password, and never shows the password', async () => {
    const withCredentials = url.replace('http://', 'http://ada:s3cret-pw@');
    const r = await toolwright(['call', withCredentials, 'echo']);
    expectRefusal(r, `error: The URL carries a user name or password, which are not sent and would show in messages: pass ${url} and the credentials as a token`);
    expect(r.stderr).not.toContain('s3cret-pw');
    expect(requests).toEqual([]);
    const unparsable = await toolwright(['call', 'http://ada:s3cret-pw@[::1/mcp', 'echo']);
    expectRefusal(unparsable, "'http://[::1/mcp' is not a valid URL.");
    expect(unparsable.stderr).not.toContain('s3cret-pw');
  });

  it.each(['file:///etc/passwd', 'FTP://example.com/mcp', 'ws://127.0.0.1/mcp'])('refuses %s as a server, and says what is one', async (target) => {
    expectRefusal(await toolwright(['call', target, 'echo']), /is not a server: pass the http:\/\/ or https:\/\/ URL of a running server, or the path of the entry file to start\./);
  });

  it.each(['99999999999', '2147483648', '0x10', '1e3', ' 100 ', '0', 'NaN', '-5', '1.5'])('refuses --timeout %j (a longer one would fire at once)', async (timeout) => {
    expectRefusal(await callFixture([`--timeout=${timeout}`]), `--timeout must be a whole number of milliseconds from 1 to 2147483647, got '${timeout}'.`);
  });

  it('takes the longest --timeout a timer holds, and says on one line how to pass a negative value', async () => {
    const r = await callFixture(['--timeout', '2147483647', '--args', '{"a":1}']);
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout: '{"a":1}\n', stderr: '' });
    expectRefusal(await callFixture(['--timeout', '-5']), /Option '--timeout' argument is ambiguous\. Did you forget .* use '--timeout=-XYZ'\. See 'toolwright call --help'\.$/m);
  });

  it('sends arguments whose keys are Object.prototype names as they are', async () => {
    const args = '{"__proto__":{"polluted":true},"constructor":{"prototype":1},"toString":"x","hasOwnProperty":null}';
    const r = await callFixture(['--args', args]);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: `${args}\n` });
  });

  it('refuses --args nested too deep to send with a one-line error (it was a stack overflow, exit 70)', async () => {
    const nested = (depth: number) => `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expectRefusal(await callFixture(['--args', nested(20_000)]), '--args nests objects and arrays more than 2000 levels deep, more than can be sent: flatten it.');
    const r = await callFixture(['--args', nested(2000)]);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: `${nested(2000)}\n` });
  });

  it('refuses an --elicit answer whose form field is not a string, number, boolean or list of strings, however deep, before anything is sent', async () => {
    const deep = (depth: number) => `{"branch":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const says = '--elicit answer #1: field "branch" must be a string, number, boolean or list of strings, as a form field is.';
    expectRefusal(await callFixture(['--elicit', deep(20_000)]), says);
    expectRefusal(await callFixture(['--elicit', deep(1)]), says);
    expectRefusal(await callFixture(['--elicit', '[{"action":"decline"},{"action":"accept","content":{"tags":[["x"]]}}]']), /answer #2: field "tags" must be/);
    expectRefusal(await callFixture(['--elicit', '{"action":"accept","content":[1]}']), `--elicit answer #1's content must be a JSON object of form fields, e.g. {"confirm":true}.`);
  });

  it.each([
    ['{bad', /--args is not valid JSON/],
    ['[1,2]', /--args must be a JSON object of named arguments, got an array/],
    ['null', /got null/],
  ])('refuses --args %j', async (args, says) => {
    expectRefusal(await callFixture(['--args', args]), says);
  });
});

describe('usage mistakes: each is one line that names the fix, exit 2 (or 3 for no server), never a stack trace', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'toolwright-hostile-usage-'));
    writeFileSync(join(tmp, 'contract.json'), JSON.stringify({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }));
    writeFileSync(join(tmp, 'afile'), 'mine');
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const toolwright = (args: string[]) => run(process.execPath, [TOOLWRIGHT, ...args], tmp, 30_000);
  // The fixture server serves the contract file named after '--'.
  const serve = ['--', 'contract.json'];

  it.each([
    // A value option given twice kept the last one silently: this made a weather project.
    [['new', 'x', '--template', 'minimal', '-t', 'weather', '--registry'], /^error: --template is given twice: it takes one value\. Keep the one you mean\. See 'toolwright new --help'\.\n$/],
    [['call', 'dist/server.js', 'echo', '--args', '{}', '--args', '{"a":1}'], /--args is given twice/],
    // The values are not repeated: one may be a token.
    [['call', 'http://127.0.0.1:9/mcp', 'echo', '--bearer', 's3cret-one', '--bearer', 's3cret-two'], /^error: --bearer is given twice: it takes one value/],
    // 'help <unknown>' printed the command list and exited 0.
    [['help', 'nosuch'], /^error: Unknown command 'nosuch'\. Commands: new, dev, call/],
    [['help', 'call', 'extra'], /'toolwright help' explains one command, got 2 words: call extra\. Run 'toolwright help call'\./],
    // Near misses name what was probably meant.
    [['test', 'conformance'], /Unknown command 'test'\. Did you mean 'test-conformance'\?/],
    [['help', 'test', 'conformance'], /Unknown command 'test'\. Did you mean 'test-conformance'\?/],
    [['isntall', 'claude'], /Unknown command 'isntall'\. Did you mean 'install'\?/],
    // An option before the command was called an unknown command.
    [['--verbose', 'call', 'dist/server.js', 'greet'], /^error: '--verbose' is an option, and the command comes first: toolwright <command> \[options\]\. Commands: new, /],
    [['new', 'x', '--template', 'wether', '--registry'], /Unknown --template 'wether'\. Use one of: minimal, weather, .*\. Did you mean 'weather'\?\n$/],
    [['new', 'x', '--template', 'Minimal', '--registry'], /Did you mean 'minimal'\?/],
    [['new', 'x', '--tempalte', 'weather', '--registry'], /Unknown option '--tempalte'\. Did you mean '--template'\? See 'toolwright new --help'\./],
    [['install', 'cluade'], /Unknown client 'cluade'\. Use one of: claude, cursor, vscode\. Did you mean 'claude'\?/],
    [['schema', 'snapshto'], /Unknown action 'snapshto'\. Use 'snapshot' or 'diff'\. Did you mean 'snapshot'\?/],
  ])('refuses %j', async (argv, says) => {
    const r = await toolwright(argv);
    expectRefusal(r, says);
    expect(r.stderr).not.toContain('s3cret');
    expect(readdirSync(tmp).sort()).toEqual(['afile', 'contract.json']);
  });

  it('names no command for a word far from every command', async () => {
    expectRefusal(await toolwright(['frobnicate']), /^error: Unknown command 'frobnicate'\. Commands: /);
  });

  // These were stack traces from an unhandled fs error (exit 70).
  it('schema snapshot --out: refuses a path under a file in one line; creates a missing folder', async () => {
    expectRefusal(
      await toolwright(['schema', 'snapshot', FIXTURE, '--out', 'afile/contract.json', ...serve]),
      /^error: Cannot write .*afile\/contract\.json: a file stands where a folder is needed \(EEXIST\)\. Pass --out a file path you can write, or leave --out off/,
    );
    const r = await toolwright(['schema', 'snapshot', FIXTURE, '--out', 'new/folder/contract.json', ...serve]);
    expect({ code: r.code, transcript: transcript(r) }).toEqual({ code: 0, transcript: expect.any(String) });
    expect(JSON.parse(readFileSync(join(tmp, 'new', 'folder', 'contract.json'), 'utf8')).tools[0].name).toBe('echo');
  });

  it('docs --out: refuses a file where the folder goes, in one line', async () => {
    expectRefusal(
      await toolwright(['docs', FIXTURE, '--out', 'afile', ...serve]),
      /^error: Cannot write .*afile: a file stands where a folder is needed \(EEXIST\)\. Pass --out a folder you can write/,
    );
    expect(readFileSync(join(tmp, 'afile'), 'utf8')).toBe('mine');
  });

  it('a URL where nothing listens: says so and how to fix it (exit 3)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const r = await toolwright(['call', `http://127.0.0.1:${port}/mcp`, 'echo']);
    expect({ code: r.code, stdout: r.stdout, transcript: transcript(r) }).toEqual({ code: 3, stdout: '', transcript: expect.any(String) });
    expect(r.stderr).toBe(
      `error: Nothing answers at http://127.0.0.1:${port}/mcp: the connection was refused. Start the server first (e.g. 'npm start' in its project), or check the host and port.\n`,
    );
    // A port the fetch standard blocks fails before connecting: it was 'fetch failed'.
    const blocked = await toolwright(['inspect', 'http://127.0.0.1:6000/mcp']);
    expect(blocked.code).toBe(3);
    expect(blocked.stderr).toMatch(/^error: Nothing answers at http:\/\/127\.0\.0\.1:6000\/mcp: fetch refuses to connect to this port \(the fetch standard blocks it\)\. Serve on another port/);
  });
});
