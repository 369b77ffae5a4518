/**
 * Issue 31 #12: what the CLI does with credentials. A bearer token never goes on the command
 * line (other users read it with ps), a token bound for a plain http:// URL on another machine
 * is warned about, and the Claude Desktop bridge runs an exact mcp-remote version.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { isLoopbackHost } from '../src/client/bearerToken';
import { generateProject } from '../src/generate/generateProject';
import { MCP_REMOTE_VERSION } from '../src/generate/versions';
import { memoryIo } from './helpers/memoryIo';

const ROOT = join(__dirname, '..', '..', '..');

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'toolwright-credentials-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const cli = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const io = { ...memoryIo(tmp), env };
  const code = await runCli(argv, io);
  return { code, stdout: io.output(), stderr: io.errors() };
};

describe('a bearer token for toolwright call, inspect, schema and docs', () => {
  let server: Server;
  let url: string;
  const seen: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    // A protected endpoint that refuses every token, and records what it was sent.
    server = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer error="invalid_token"', 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid_token', error_description: 'The token is not valid.' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
  });

  it('refuses --bearer <token>, which other users of the machine could read, and says how to pass it', async () => {
    const result = await cli(['call', url, 'greet', '--bearer', 's3cret']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--bearer <token> would put the token on the command line, where other users of this machine can read it (ps, /proc)');
    expect(result.stderr).toContain('TOOLWRIGHT_BEARER=<token> toolwright ..., or --bearer-env NAME');
    expect(seen).toEqual([]); // nothing was sent
  });

  it('sends the token from TOOLWRIGHT_BEARER', async () => {
    const result = await cli(['call', url, 'greet'], { TOOLWRIGHT_BEARER: 'from-default' });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('requires authorization (HTTP 401) and refused the credentials sent');
    expect(seen.map((h) => h.authorization)).toContain('Bearer from-default');
    expect(result.stderr).not.toContain('Warning'); // loopback: nothing on the network path
  });

  it('sends the token from the variable --bearer-env names, for every command that connects', async () => {
    for (const argv of [
      ['call', url, 'greet'],
      ['inspect', url],
      ['schema', 'snapshot', url],
    ]) {
      seen.length = 0;
      const result = await cli([...argv, '--bearer-env', 'MY_TOKEN'], { MY_TOKEN: 'named', TOOLWRIGHT_BEARER: 'not-this-one' });
      expect(result.code).toBe(3);
      expect(seen.map((h) => h.authorization)).toContain('Bearer named');
    }
  });

  it('says how to pass a token when none was sent', async () => {
    const result = await cli(['call', url, 'greet']);
    expect(result.stderr).toContain(`${url} requires authorization (HTTP 401): put a token in TOOLWRIGHT_BEARER`);
    expect(seen.every((h) => h.authorization === undefined)).toBe(true);
  });

  it.each([
    [['call', 'URL', 'x', '--bearer-env', 'NOT_SET'], '--bearer-env NOT_SET: the environment variable NOT_SET is not set (or empty)'],
    [['call', 'URL', 'x', '--bearer-env', 'no-such name'], "--bearer-env 'no-such name' is not an environment variable name"],
    [['call', 'dist/server.js', 'x', '--bearer-env', 'MY_TOKEN'], '--header and --bearer-env apply to a server URL'],
    [['call', 'dist/server.js', 'x', '--bearer', 't'], '--bearer <token> would put the token on the command line'],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const result = await cli(
      argv.map((a) => (a === 'URL' ? url : a)),
      { MY_TOKEN: 't' },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('warns before sending credentials over plain http:// to another machine, not over https:// or to this one', async () => {
    // example.invalid never resolves: the warning comes before the connection fails.
    const plain = await cli(['call', 'http://example.invalid/mcp', 'greet', '--timeout', '2000'], { TOOLWRIGHT_BEARER: 't' });
    expect(plain.stderr).toContain('Warning: sending credentials over plain http:// to example.invalid: anyone on the network path can read the token and replay it. Use https://');
    const header = await cli(['call', 'http://example.invalid:8080/mcp', 'greet', '--header', 'Authorization: Basic eDp5', '--timeout', '2000']);
    expect(header.stderr).toContain('Warning: sending credentials over plain http:// to example.invalid:8080');
    expect(header.stderr).toContain("Warning: --header 'Authorization: ...' puts the credentials on the command line");
    const secure = await cli(['call', 'https://example.invalid/mcp', 'greet', '--timeout', '2000'], { TOOLWRIGHT_BEARER: 't' });
    expect(secure.stderr).not.toContain('plain http://');
    const anonymous = await cli(['call', 'http://example.invalid/mcp', 'greet', '--timeout', '2000']);
    expect(anonymous.stderr).not.toContain('Warning');
  });

  it.each([
    ['localhost', true],
    ['api.localhost', true],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['[::1]', true],
    ['[::ffff:127.0.0.1]', true],
    ['10.0.0.5', false],
    ['0.0.0.0', false],
    ['example.com', false],
    ['localhost.example.com', false],
    ['127.0.0.1.nip.io', false],
  ])('isLoopbackHost(%s) is %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe('the Claude Desktop bridge for an HTTP server', () => {
  it('runs mcp-remote at an exact version, never whatever npx finds', async () => {
    expect(MCP_REMOTE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    mkdirSync(join(tmp, 'dist'));
    writeFileSync(join(tmp, 'package.json'), JSON.stringify({ name: 'notes', main: 'dist/server.js' }));
    writeFileSync(join(tmp, 'dist', 'server.js'), '');
    const result = await cli(['config', 'claude', '--url', 'https://mcp.example.com/mcp']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ mcpServers: { notes: { command: 'npx', args: ['-y', `mcp-remote@${MCP_REMOTE_VERSION}`, 'https://mcp.example.com/mcp'] } } });
  });

  it('is pinned in a generated http project README and in the CLI guide', () => {
    const files = generateProject({ template: 'http', transport: 'http', packageName: 'tasks', toolwrightVersion: '0.1.0' });
    const readme = files.find((f) => f.path === 'README.md')!.content;
    expect(readme).toContain(`"mcp-remote@${MCP_REMOTE_VERSION}"`);
    expect(readme).not.toMatch(/"mcp-remote"/);
    expect(readFileSync(join(ROOT, 'docs', 'guide', 'cli.md'), 'utf8')).toContain(`mcp-remote@${MCP_REMOTE_VERSION}`);
  });
});
