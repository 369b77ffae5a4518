/**
 * Issue 30 #9: CLI answers that misled. Each test replays one and shows the answer now given
 * (the ones that start a server process are in commands.e2e.test.ts and stale-build in there too).
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { lintContract } from '../src/lint/lintContract';
import { memoryIo } from './helpers/memoryIo';

const cli = async (cwd: string, ...argv: string[]) => {
  const io = memoryIo(cwd);
  const code = await runCli(argv, io);
  return { code, stdout: io.output(), stderr: io.errors() };
};

describe('CLI answers are true', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'toolwright-answers-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  describe('a server that requires a token', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      // Answers as a protected MCP endpoint does without a valid token.
      server = createServer((req, res) => {
        req.resume();
        res.writeHead(401, { 'WWW-Authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"', 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: 'invalid_token', error_description: 'Missing bearer token' }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('says it requires authorization and how to pass a token, not that it could not be reached', async () => {
      const result = await cli(tmp, 'call', url, 'greet');
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`${url} requires authorization (HTTP 401): put a token in TOOLWRIGHT_BEARER`);
      expect(result.stderr).not.toContain('could not be reached');
    });

    it('says the token sent was refused', async () => {
      const io = { ...memoryIo(tmp), env: { TOOLWRIGHT_BEARER: 'expired' } };
      await runCli(['inspect', url], io);
      const result = { stderr: io.errors() };
      expect(result.stderr).toContain('requires authorization (HTTP 401) and refused the credentials sent');
    });
  });

  it('counts characters in the singular for one', () => {
    const contract = {
      contractVersion: 1 as const,
      server: { name: 's', version: '1' },
      tools: [{ name: 'get_report', description: 'x', inputSchema: { type: 'object' as const } }],
      resources: [],
      resourceTemplates: [],
      prompts: [],
    };
    expect(lintContract(contract).find((i) => i.rule === 'tool-description')?.message).toMatch(/^the description is 1 character;/);
  });

  it('names the server argument one way in schema --help', async () => {
    const help = await cli(tmp, 'schema', '--help');
    expect(help.stdout).toContain('toolwright schema snapshot [server]');
    expect(help.stdout).toContain('toolwright schema diff <old.json> [server]');
    expect(help.stdout).not.toContain('[entry]');
  });

  it('new --registry from a checkout says the version may not be published, and what to do then', async () => {
    const result = await cli(tmp, 'new', 'my-server', '--registry');
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/--registry: the project depends on @toolwright\/\*@\d+\.\d+\.\d+ from the npm registry\. .*if 'npm install' fails with E404, create the project without --registry/);
    const help = await cli(tmp, 'new', '--help');
    expect(help.stdout).toContain("install' then fails with E404 while that version is unpublished");
  });
});
