/**
 * The commands that talk to a server, against servers that misbehave on purpose (a third-party
 * server, a proxied upstream, a buggy one): fixtures/hostile-server.js over stdio, and an HTTP
 * server in this process. What a server sends is shown, never obeyed by the terminal; too much
 * of it, or none, ends the command with a message and exit 3.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { memoryIo } from './helpers/memoryIo';

const HOSTILE = join(__dirname, 'fixtures', 'hostile-server.js');
jest.setTimeout(120_000);

/** Characters a terminal obeys: ESC, BEL, CR, the C1 CSI and a bidi override, all in the fixture's text. */
// eslint-disable-next-line no-control-regex -- the characters a terminal obeys are what is checked for
const OBEYED = /[\u0007\u000d\u001b\u009b\u202e]/;
/** The fixture's text as it sends it... */
const RAW = '\u001b[31mred\u001b[0m \u001b]52;c;ZWNobyBwd25lZA==\u0007 \u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007 fake\rover \u0007 \u009b2J \u202eevil';
/** ...and as the CLI shows it. */
const SHOWN = String.raw`\x1b[31mred\x1b[0m \x1b]52;c;ZWNobyBwd25lZA==\x07 \x1b]8;;https://evil.example\x07link\x1b]8;;\x07 fake\x0dover \x07 \x9b2J \u202eevil`;

describe('hostile servers', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'toolwright-hostile-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const cli = async (argv: string[]) => {
    const io = memoryIo(tmp);
    const code = await runCli(argv, io);
    return { code, stdout: io.output(), stderr: io.errors() };
  };
  const hostile = (mode: string, ...argv: string[]) => cli([...argv, '--', mode]);

  it('inspect and inspect --lint show names, descriptions and schemas with control characters escaped', async () => {
    for (const argv of [
      ['inspect', HOSTILE],
      ['inspect', '--lint', HOSTILE],
    ]) {
      const result = await hostile('evil', ...argv);
      expect(result.stdout + result.stderr).not.toMatch(OBEYED);
      expect(result.stdout).toContain(`srv${SHOWN} 1${SHOWN}: 1 tool, 1 resource, 1 prompt`);
      for (const shown of [`t${SHOWN} (title${SHOWN})`, `desc${SHOWN}`, `p${SHOWN}  string, optional, pattern x${SHOWN}  pd${SHOWN}`, `r://x${SHOWN}`, `pr${SHOWN}(a${SHOWN})`]) {
        expect(result.stdout).toContain(shown);
      }
    }
    expect((await hostile('evil', 'inspect', '--lint', HOSTILE)).stdout).toContain(`error   tool 't${SHOWN}': names are 1-128 characters`);
  });

  it('inspect --json and schema snapshot stay exact JSON, with what a terminal obeys as \\u escapes', async () => {
    const json = await hostile('evil', 'inspect', '--json', HOSTILE);
    expect(json.stdout).not.toMatch(OBEYED);
    expect(json.stdout).toContain(String.raw`\u009b2J \u202eevil`);
    const contract = JSON.parse(json.stdout);
    expect(contract.tools[0].description).toBe(`desc${RAW}`);
    const snapshot = await hostile('evil', 'schema', 'snapshot', HOSTILE);
    expect(snapshot.stdout).not.toMatch(OBEYED);
    expect(JSON.parse(snapshot.stdout)).toEqual(contract);
  });

  it('schema diff shows the changed names escaped', async () => {
    writeFileSync(join(tmp, 'old.json'), JSON.stringify({ contractVersion: 1, server: { name: 's', version: '1' }, tools: [] }));
    const diff = await hostile('evil', 'schema', 'diff', 'old.json', HOSTILE);
    expect(diff.stdout).not.toMatch(OBEYED);
    expect(diff.stdout).toContain(`tool 't${SHOWN}': new tool`);
  });

  it('call shows results, tool errors, protocol errors, links, resources, prompts, questions and the server log escaped; --json stays exact', async () => {
    const cases: [string[], number, string][] = [
      [['x'], 0, `ok${SHOWN}`],
      [['fail'], 1, `boom${SHOWN}`],
      [['protocol'], 3, `error: tools/call 'protocol' failed: bad${SHOWN} (JSON-RPC error -32602)`],
      [['link'], 0, `[resource link r://${SHOWN} (n${SHOWN})]\n[image image/png${SHOWN}, 3 bytes]`],
      [['--resource', 'r://x'], 0, `res${SHOWN}\n[m${SHOWN} r://b${SHOWN}, 3 bytes]`],
      [['--prompt', 'p'], 0, `user: msg${SHOWN}`],
      [['ask', '--decline'], 0, `The server asks: ask${SHOWN}`],
      [['x', '--verbose'], 0, `log${SHOWN}`],
    ];
    for (const [argv, code, shown] of cases) {
      const result = await hostile('evil', 'call', HOSTILE, ...argv);
      expect({ argv, code: result.code }).toEqual({ argv, code });
      expect(result.stdout + result.stderr).not.toMatch(OBEYED);
      expect(result.stdout + result.stderr).toContain(shown);
    }
    const structured = await hostile('evil', 'call', HOSTILE, 'structured');
    expect(structured.stdout).not.toMatch(OBEYED);
    expect(JSON.parse(structured.stdout)).toEqual({ [`k${RAW}`]: `v${RAW}` });
    const json = await hostile('evil', 'call', HOSTILE, 'x', '--json');
    expect(json.stdout).not.toMatch(OBEYED);
    expect(JSON.parse(json.stdout).content[0].text).toBe(`ok${RAW}`);
  });

  it('a line on stdout that is not JSON-RPC is quoted escaped (exit 3)', async () => {
    const result = await hostile('garbage', 'inspect', HOSTILE);
    expect(result.code).toBe(3);
    expect(result.stderr).not.toMatch(OBEYED);
    expect(result.stderr).toContain('The server wrote a line to stdout that is not JSON-RPC: "GARBAGE\\u001b[31mred');
  });

  it('docs writes its two files inside --out whatever the names, with control characters escaped', async () => {
    expect((await hostile('paths', 'docs', HOSTILE, '--out', 'paths')).code).toBe(0);
    expect(readdirSync(join(tmp, 'paths')).sort()).toEqual(['llms.txt', 'reference.md']);
    expect((await hostile('evil', 'docs', HOSTILE, '--out', 'evil')).code).toBe(0);
    for (const file of ['llms.txt', 'reference.md']) {
      const text = readFileSync(join(tmp, 'evil', file), 'utf8');
      expect(text).not.toMatch(OBEYED);
      expect(text).toContain(`desc${SHOWN}`);
    }
  });

  it('a 200 MB result on stdio fails fast with the limit it passed (exit 3), instead of timing out after a minute', async () => {
    const started = Date.now();
    const result = await hostile('bigResult', 'call', HOSTILE, 'x');
    expect(result).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error: The server (on stdout) sent a message of more than 64 MiB, more than toolwright reads. Page long lists (nextCursor), and return large content as a resource link or in parts.\n',
    });
    expect(Date.now() - started).toBeLessThan(50_000);
  });

  it('100,000 tools and a 50 MB description are read', async () => {
    expect((await hostile('many', 'inspect', HOSTILE)).stdout).toContain('hostile 1.0.0: 100000 tools, 0 resources, 0 prompts');
    const huge = await hostile('huge', 'inspect', '--json', HOSTILE);
    expect(JSON.parse(huge.stdout).tools[0].description).toHaveLength(50 * 1024 * 1024);
  });

  it('a server that never answers, or floods notifications instead, fails at --timeout and says how to wait longer (exit 3)', async () => {
    expect(await hostile('silent', 'inspect', HOSTILE, '--timeout', '1000')).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error: The server could not be reached: no answer within 1000 ms. If the server is slow, raise --timeout <ms>; run with --verbose to see its log (stderr).\n',
    });
    const flood = await hostile('flood', 'call', HOSTILE, 'x', '--timeout', '1000');
    expect(flood.code).toBe(3);
    expect(flood.stderr).toBe("error: tools/call 'x' failed: no answer within 1000 ms. If the server is slow, raise --timeout <ms>; run with --verbose to see its log (stderr).\n");
  });

  it('a server that exits during a call is reported with its exit code (exit 3)', async () => {
    expect(await hostile('exitMidCall', 'call', HOSTILE, 'x')).toEqual({ code: 3, stdout: '', stderr: 'error: The server exited with code 7 before answering.\n' });
  });

  describe('over HTTP', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      // Answers every request with a JSON body of 65 MiB and more.
      server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          const chunk = 'x'.repeat(1024 * 1024);
          let sent = 0;
          const write = (): void => {
            while (sent < 200) {
              sent++;
              if (!res.write(chunk)) return void res.once('drain', write);
            }
            res.end();
          };
          res.on('error', () => undefined);
          write();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    });
    afterAll(() => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('an answer of more than 64 MiB is refused with the limit it passed (exit 3), not read into memory', async () => {
      expect(await cli(['inspect', url])).toEqual({
        code: 3,
        stdout: '',
        stderr: `error: ${url} sent a message of more than 64 MiB, more than toolwright reads. Page long lists (nextCursor), and return large content as a resource link or in parts.\n`,
      });
    });
  });
});
