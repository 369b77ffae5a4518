import 'reflect-metadata';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createApp } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { ERAS, INITIALIZE, connectEra, post, rawPost } from '../../hono/test/fixtures/v2Clients';
import { expectServedOAuth } from '../../oauth/test/fixtures/expectServedOAuth';
import { spawnListening } from '../../server/test/fixtures/spawnListening';
import { NoteTools } from './fixture/lib/tools';

/**
 * The real Next.js from npm: the fixture app (app/mcp/route.ts exporting the handlers of
 * createRouteHandlers) is built once with `next build` (Next's own compiler, SWC, over the
 * decorated tool classes) and served by `next start` on 127.0.0.1, driven by the MCP SDK v2
 * client in both eras. Needs the packages built (`npm run build`): Next loads them from node_modules.
 */
/** What `ctx.era` says in each protocol era. */
const ERA_NAME = { '2025-11-25': 'legacy', '2026-07-28': 'modern' } as const;
const FIXTURE = join(__dirname, 'fixture');
const NEXT = require.resolve('next/dist/bin/next');

/**
 * `next start` on 127.0.0.1, once it says it is ready. It listens on a port of its own choosing
 * (`-p 0`) and prints it. When the app must know its origin before it starts (`env` is then a
 * function of the origin: the issuer is in every token), the port is picked here instead, and
 * again when next exits because another process took it meanwhile.
 */
async function nextStart(env: Record<string, string> | ((origin: string) => Record<string, string>) = {}): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const envFor = typeof env === 'function' ? env : () => env;
  const { child, said, output } = await spawnListening(
    (port) =>
      spawn(process.execPath, [NEXT, 'start', '-H', '127.0.0.1', '-p', String(port)], {
        cwd: FIXTURE,
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...envFor(`http://127.0.0.1:${port}`) },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    // Both lines come once it listens; `Local:` has the port it listens on.
    { listening: /- Local:\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Ready in/, port: typeof env === 'function' ? undefined : 0, name: 'next start' },
  );
  return { child, url: new URL('/mcp', said[1]).href, output };
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** tools/list of the same classes compiled by tsc (ts-jest), served in this process through the fetch handler. */
async function tscSchemas(): Promise<unknown> {
  const handler = createFetchHandler(await createApp({ name: 'next-notes', version: '1.0.0', tools: [NoteTools] }), { logError: () => {} });
  const client = new Client({ name: 'tsc', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler(new Request(url, init)) }));
  const { tools } = await client.listTools();
  await client.close();
  await handler.close();
  return tools;
}

let buildSeconds = 0;
beforeAll(() => {
  // Next loads the packages as a project would, from node_modules: their build outputs.
  const built = ['packages/next/dist/index.js', 'packages/oauth/dist/index.js', 'packages/server/bundle/fetch.js', 'packages/core/bundle/index.js'].filter(
    (file) => !existsSync(join(__dirname, '..', '..', '..', file)),
  );
  if (built.length > 0) throw new Error(`Build the packages first (npm run build): ${built.join(', ')} missing.`);
  const started = Date.now();
  const build = spawnSync(process.execPath, [NEXT, 'build'], { cwd: FIXTURE, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }, encoding: 'utf8', timeout: 240_000 });
  buildSeconds = (Date.now() - started) / 1000;
  if (build.status !== 0) throw new Error(`next build failed (${build.status}):\n${build.stdout}\n${build.stderr}`);
  expect(build.stdout).toMatch(/ƒ \/mcp/);
}, 300_000);

describe('Next.js 16 App Router: createRouteHandlers in app/mcp/route.ts, next build + next start', () => {
  let served: Awaited<ReturnType<typeof nextStart>> | undefined;
  beforeAll(async () => {
    served = await nextStart();
  });
  afterAll(() => stop(served?.child));

  it.each(ERAS)('a %s client lists and calls tools; bad arguments are a tool error', async (era) => {
    const client = await connectEra(era, served!.url);
    try {
      expect(await client.listToolNames()).toEqual(['repeat', 'shout']);
      expect((await client.callTool('repeat', { note: 'hi', count: 2, loud: true })).content[0].text).toBe(`${ERA_NAME[era]}: HI HI`);
      expect((await client.callTool('shout', { level: 'high', times: 2, word: 'go' })).content[0].text).toBe('gogo!');
      const bad = await client.callTool('repeat', { note: 'hi', count: 2.5 });
      expect(bad.isError).toBe(true);
      if (era === '2025-11-25') expect(client.sessionId).toEqual(expect.any(String));
    } finally {
      await client.close();
    }
  });

  it("decorator metadata survives Next's compiler: the schemas equal those of the same classes compiled by tsc", async () => {
    const client = await connectEra('2026-07-28', served!.url);
    try {
      expect(await client.listTools()).toEqual(await tscSchemas());
    } finally {
      await client.close();
    }
  });

  it('the fetch handler defences hold: foreign Host 403, foreign Origin 403, bad JSON -32700', async () => {
    const host = await rawPost(served!.url, INITIALIZE, { host: 'evil.example' });
    expect(host.status).toBe(403);
    expect((await post(served!.url, INITIALIZE, { origin: 'https://evil.example' })).status).toBe(403);
    const broken = await post(served!.url, '{"jsonrpc": "2.0", "id": 1, ');
    expect([broken.status, ((await broken.json()) as { error: { code: number } }).error.code]).toEqual([400, -32700]);
  });

  it("PUT, PATCH and OPTIONS (no cors) get the fetch handler's 405 with Allow and its JSON-RPC error, not Next's bare 405 and 204; HEAD goes to GET", async () => {
    const handler = createFetchHandler(await createApp({ name: 'next-notes', version: '1.0.0', tools: [NoteTools] }), { logError: () => {} });
    const answerOf = async (response: Response) => [response.status, response.headers.get('allow'), response.headers.get('content-type'), await response.text()];
    try {
      for (const [method, body] of [
        ['PUT', '{}'],
        ['PATCH', '{}'],
        ['OPTIONS', undefined],
      ] as const) {
        const expected = await answerOf(await handler(new Request('http://127.0.0.1/mcp', { method, body })));
        expect(expected.slice(0, 2)).toEqual([405, 'GET, POST, DELETE']);
        expect([method, ...(await answerOf(await fetch(served!.url, { method, body })))]).toEqual([method, ...expected]);
      }
      const head = await fetch(served!.url, { method: 'HEAD' });
      expect([head.status, head.headers.get('allow'), await head.text()]).toEqual([405, 'GET, POST, DELETE', '']);
    } finally {
      await handler.close();
    }
  });

  it('a route that read the body before handing the request on gets a JSON-RPC 500, not a parse error blaming the client; the log says what to change', async () => {
    const response = await post(served!.url.replace(/\/mcp$/, '/read-first'), INITIALIZE);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32603, message: 'Internal error: the request body was read before the MCP endpoint got it. The server log has the details.' },
    });
    const logged = /toolwright next: the body of POST \/read-first was read before the route handler got the request.*request\.clone\(\)/;
    for (let waited = 0; !logged.test(served!.output()) && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(served!.output()).toMatch(logged);
  });

  it('handlers exported from a route at another path answer 404 saying which path to set', async () => {
    const elsewhere = await post(served!.url.replace(/\/mcp$/, '/elsewhere'), INITIALIZE);
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toEqual({
      error: 'not_found',
      error_description: "This route serves the MCP endpoint at /mcp, not /elsewhere: set createRouteHandlers(app, { path: '/elsewhere' }), or move the route to app/mcp/route.ts.",
    });
  });
});

describe('Next.js 16: the same build served stateless (as on Vercel, where instances share no memory), with bearer auth', () => {
  let served: Awaited<ReturnType<typeof nextStart>> | undefined;
  beforeAll(async () => {
    served = await nextStart({ MCP_STATELESS: '1', MCP_TOKEN: 'good' });
  });
  afterAll(() => stop(served?.child));

  it('without a token: 401 with the RFC 9728 challenge; the metadata is served by the .well-known route', async () => {
    const refused = await post(served!.url, INITIALIZE);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer .*resource_metadata="http:\/\/127\.0\.0\.1\/\.well-known\/oauth-protected-resource\/mcp"/);
    const metadata = await fetch(served!.url.replace(/\/mcp$/, '/.well-known/oauth-protected-resource/mcp'));
    expect(await metadata.json()).toMatchObject({ resource: 'http://127.0.0.1/mcp', authorization_servers: ['https://issuer.example.test'] });
  });

  it.each(ERAS)('a %s client with the token is served without a session', async (era) => {
    const client = await connectEra(era, served!.url, { authorization: 'Bearer good' });
    try {
      expect((await client.callTool('repeat', { note: 'x', count: 1 })).content[0].text).toBe(`${ERA_NAME[era]}: x`);
      expect(client.sessionId).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('GET (a session stream), PUT and OPTIONS are refused with 405 and Allow: POST', async () => {
    expect((await fetch(served!.url, { headers: { accept: 'text/event-stream', authorization: 'Bearer good' } })).status).toBe(405);
    for (const method of ['PUT', 'OPTIONS']) {
      const refused = await fetch(served!.url, { method });
      expect([method, refused.status, refused.headers.get('allow')]).toEqual([method, 405, 'POST']);
    }
  });
});

describe('Next.js 16: the same build with createApp({ oauth }), the authorization server at /oauth served by catch-all routes', () => {
  let served: Awaited<ReturnType<typeof nextStart>> | undefined;
  let origin = '';
  beforeAll(async () => {
    // The issuer is in every token and redirect: the port is chosen before next starts.
    served = await nextStart((chosen) => ({ MCP_OAUTH_ORIGIN: chosen }));
    origin = new URL(served.url).origin;
  });
  afterAll(() => stop(served?.child));

  it('the SDK v2 client discovers, registers, signs in with PKCE and calls a scoped tool; the authorization server keeps its defences', async () => {
    await expectServedOAuth({ mcpUrl: served!.url, issuer: `${origin}/oauth` });
    // Every route shares the one app of the server process: the codes /oauth/authorize stored were redeemed at /oauth/token, and /mcp took the tokens.
    expect(served!.output()).not.toMatch(/toolwright next: a route handler/);
  });
});

afterAll(() => {
  // The build's duration, for the report of slow suites.
  process.stderr.write(`next build took ${buildSeconds.toFixed(1)} s\n`);
});
