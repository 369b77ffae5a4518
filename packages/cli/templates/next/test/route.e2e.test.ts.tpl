import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { mcp } from '../src/mcp';

/**
 * The route handlers in memory (compiled by tsc through ts-jest), and the app as `next build`
 * compiled it (SWC, with the decorator metadata tsconfig.json asks for), served by `next start`
 * on 127.0.0.1 (`npm test` builds first). Both eras, and the same schemas from both compilers.
 */
type Era = '2025-11-25' | '2026-07-28';
type CallResult = Awaited<ReturnType<Client['callTool']>>;
const text = (result: CallResult) => (result.content as { text: string }[])[0].text;

/** The route's handler for a request's method, as Next calls it. */
function route(request: Request): Promise<Response> {
  if (request.method === 'GET') return mcp.GET(request);
  if (request.method === 'DELETE') return mcp.DELETE(request);
  return mcp.POST(request);
}

async function connect(url: string, era: Era, inMemory = false): Promise<Client> {
  const client = new Client({ name: 'next-test', version: '1.0.0' }, { versionNegotiation: { mode: era === '2026-07-28' ? { pin: era } : 'legacy' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), inMemory ? { fetch: (input, init) => route(new Request(input, init)) } : {}));
  return client;
}

/** `next start` on 127.0.0.1, on a port of its own choosing (`-p 0`); resolves with the endpoint once Next is ready. */
async function nextStart(): Promise<{ url: string; child: ChildProcess }> {
  const next = require.resolve('next/dist/bin/next');
  const child = spawn(process.execPath, [next, 'start', '-H', '127.0.0.1', '-p', '0'], {
    cwd: join(__dirname, '..'),
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      // `- Local: http://127.0.0.1:<port>` names the port it listens on; `Ready in ...` comes once it serves.
      const origin = /- Local:\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Ready in/.exec(output)?.[1];
      if (origin) resolve({ url: `${origin}/mcp`, child });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`next start exited ${code}:\n${output}`)));
  });
}

describe('{{serverName}}: the Next.js route', () => {
  let next: { url: string; child: ChildProcess };
  beforeAll(async () => {
    next = await nextStart();
  });
  afterAll(async () => {
    await mcp.close();
    if (next && next.child.exitCode === null) {
      const exited = new Promise((resolve) => next.child.once('exit', resolve));
      next.child.kill('SIGTERM');
      await exited;
    }
  });

  it.each(['2025-11-25', '2026-07-28'] as const)('in memory (%s): counts words and makes slugs', async (era) => {
    const client = await connect('http://localhost/mcp', era, true);
    const counted = await client.callTool({ name: 'word_count', arguments: { text: 'Deploy anywhere' } });
    expect(counted.structuredContent).toEqual({ words: 2, characters: 15 });
    expect(text(await client.callTool({ name: 'slugify', arguments: { title: 'Déploy  anywhere!' } }))).toBe('deploy-anywhere');
    await client.close();
  });

  it.each(['2025-11-25', '2026-07-28'] as const)('next start (%s): the same answers from the app next build compiled', async (era) => {
    const client = await connect(next.url, era);
    const counted = await client.callTool({ name: 'word_count', arguments: { text: 'Deploy anywhere' } });
    expect(counted.structuredContent).toEqual({ words: 2, characters: 15 });
    const refused = await client.callTool({ name: 'slugify', arguments: { title: 'x', maxLength: 1.5 } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('maxLength');
    await client.close();
  });

  it("next build's compiler kept the decorator metadata: the schemas equal tsc's", async () => {
    const [inMemory, served] = await Promise.all([connect('http://localhost/mcp', '2026-07-28', true), connect(next.url, '2026-07-28')]);
    const [fromTsc, fromNext] = await Promise.all([inMemory.listTools(), served.listTools()]);
    await Promise.all([inMemory.close(), served.close()]);
    expect(fromNext.tools).toEqual(fromTsc.tools);
    expect(fromTsc.tools.find((t) => t.name === 'word_count')!.outputSchema).toMatchObject({ properties: { words: { type: 'integer' } } });
  });
});
