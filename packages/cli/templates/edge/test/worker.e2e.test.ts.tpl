import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { {{appFactory}} } from '../src/app';

/**
 * The app through the web-standard fetch handler: in memory on Node, and as the bundled Worker
 * (`npm run build` makes dist-worker/worker.mjs) on workerd, started by scripts/serve-workerd.mjs.
 * Both eras, and the same schemas on both: the bundle kept tsc's decorator metadata.
 */
type Era = '2025-11-25' | '2026-07-28';
type CallResult = Awaited<ReturnType<Client['callTool']>>;
const text = (result: CallResult) => (result.content as { text: string }[])[0].text;

async function connect(url: string, era: Era, fetchFn?: FetchHandler): Promise<Client> {
  const client = new Client({ name: 'edge-test', version: '1.0.0' }, { versionNegotiation: { mode: era === '2026-07-28' ? { pin: era } : 'legacy' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), fetchFn ? { fetch: (input, init) => fetchFn(new Request(input, init)) } : {}));
  return client;
}

/** Starts the Worker on workerd on a free port; resolves with its endpoint once it listens. */
function startWorkerd(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(__dirname, '..', 'scripts', 'serve-workerd.mjs')], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /listening on (\S+)/.exec(stderr)?.[1];
      if (url) resolve({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`serve-workerd exited ${code}: ${stderr}`)));
  });
}

describe('{{serverName}} through the fetch handler', () => {
  let handler: FetchHandler;
  let workerd: { url: string; child: ChildProcess };
  beforeAll(async () => {
    handler = createFetchHandler(await {{appFactory}}());
    workerd = await startWorkerd();
  });
  afterAll(async () => {
    await handler.close();
    if (workerd && workerd.child.exitCode === null) {
      const exited = new Promise((resolve) => workerd.child.once('exit', resolve));
      workerd.child.kill('SIGTERM');
      await exited;
    }
  });

  it.each(['2025-11-25', '2026-07-28'] as const)('on Node, in memory (%s): counts words and makes slugs', async (era) => {
    const client = await connect('http://localhost/mcp', era, handler);
    const counted = await client.callTool({ name: 'word_count', arguments: { text: 'Deploy anywhere' } });
    expect(counted.structuredContent).toEqual({ words: 2, characters: 15 });
    expect(text(await client.callTool({ name: 'slugify', arguments: { title: 'Déploy  anywhere!' } }))).toBe('deploy-anywhere');
    await client.close();
  });

  it.each(['2025-11-25', '2026-07-28'] as const)('on workerd, the bundled Worker (%s): the same answers', async (era) => {
    const client = await connect(workerd.url, era);
    const counted = await client.callTool({ name: 'word_count', arguments: { text: 'Deploy anywhere' } });
    expect(counted.structuredContent).toEqual({ words: 2, characters: 15 });
    expect(text(await client.callTool({ name: 'slugify', arguments: { title: 'Deploy anywhere', maxLength: 6 } }))).toBe('deploy');
    const refused = await client.callTool({ name: 'slugify', arguments: { title: 'x', maxLength: 1.5 } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('maxLength');
    await client.close();
  });

  it('workerd serves the schemas Node serves: the bundle kept the decorator metadata', async () => {
    const node = await connect('http://localhost/mcp', '2026-07-28', handler);
    const worker = await connect(workerd.url, '2026-07-28');
    const [onNode, onWorkerd] = await Promise.all([node.listTools(), worker.listTools()]);
    await Promise.all([node.close(), worker.close()]);
    expect(onWorkerd.tools).toEqual(onNode.tools);
    const slugify = onNode.tools.find((t) => t.name === 'slugify')!;
    expect(slugify.inputSchema.properties).toMatchObject({ maxLength: { type: 'integer' } });
    expect(onNode.tools.find((t) => t.name === 'word_count')!.outputSchema).toMatchObject({ properties: { words: { type: 'integer' }, characters: { type: 'integer' } } });
  });

  it('answers only loopback Host names unless ALLOWED_HOSTS lists more (DNS rebinding)', async () => {
    const response = await handler(
      new Request('http://evil.example/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' }),
    );
    expect(response.status).toBe(403);
  });
});
