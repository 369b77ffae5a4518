import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { textOf } from './fixtures/httpHelpers';

const WEATHER = join(__dirname, '..', '..', '..', 'examples', 'weather', 'dist', 'server.js');

/** Starts the built weather example with the given flags; resolves with its URL once it listens. */
async function startWeather(...flags: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [WEATHER, '--http', '--port', '0', ...flags], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /"msg":"listening","url":"([^"]+)"/.exec(stderr);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`weather server exited (${code}): ${stderr}`)));
  });
  return { child, url };
}

describe('the weather example over HTTP (built, in child processes)', () => {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

  it.each([[[]], [['--stateless']], [['--json']]])('serves %j on http://127.0.0.1:<port>/mcp and exits 0 on SIGTERM', async (flags) => {
    const { child, url } = await startWeather(...(flags as string[]));
    children.push(child);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'example-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['get_weather', 'calculate']));
    expect(textOf(await client.callTool({ name: 'calculate', arguments: { operation: 'multiply', a: 6, b: 7 } }))).toBe('6 multiply 7 = 42');
    await client.close();
    const exit = once(child, 'exit');
    child.kill('SIGTERM');
    expect(await exit).toEqual([0, null]);
  });

  it('scales out statelessly: one client alternating between two server processes, every call succeeds', async () => {
    const [a, b] = await Promise.all([startWeather('--stateless'), startWeather('--stateless')]);
    children.push(a.child, b.child);
    const hits = new Map<string, number>();
    let turn = 0;
    // A round-robin "load balancer" in front of the client: each HTTP request goes to the next server.
    const balanced: typeof fetch = (input, init) => {
      const target = [a.url, b.url][turn++ % 2];
      hits.set(target, (hits.get(target) ?? 0) + 1);
      return fetch(target, init);
    };
    const client = new Client({ name: 'scale-out', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(a.url), { fetch: balanced }));
    for (let i = 0; i < 20; i++) {
      const result = await client.callTool({ name: 'calculate', arguments: { operation: 'add', a: i, b: 1 } });
      expect(textOf(result)).toBe(`${i} add 1 = ${i + 1}`);
    }
    await client.close();
    expect(hits.get(a.url)).toBeGreaterThanOrEqual(10);
    expect(hits.get(b.url)).toBeGreaterThanOrEqual(10);
  });
});
