import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createFetchHandler } from '@toolwright/server/fetch';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';

// Retried, not skipped: wrangler dev on a loaded 2-core machine has answered one request 500 now and then
// (closing note of 2026-12-03). Since 2026-12-05 it serves a private copy of the bundle (WRANGLER_DIR), as
// wrangler reloads the Worker whenever its folder is written (another run, a build); 11 runs since, some
// under load, saw no 500, but the cause is not proven, so the retry stays. A real regression fails every attempt.
jest.retryTimes(2, { logErrorsBeforeRetry: true });

/**
 * The example served by real Deno and Bun processes (`Deno.serve(handler)`,
 * `Bun.serve({ fetch })`), each running what tsc emitted (dist/, decorator metadata
 * included), and by workerd (Miniflare) running the Worker bundled from that output, which Deno
 * and Bun serve too (deno-worker.mjs, bun-worker.mjs); then the
 * same app mounted in a Hono app (`@toolwright/hono`) on each of the three runtimes; driven
 * from node over 127.0.0.1 by the v1 SDK client (2025-11-25, with a session where the runtime
 * keeps them) and the v2 client (2026-07-28). The tools' schemas must be those node serves from the same build.
 */
const ROOT = join(__dirname, '..');
const { nodeBinary } = require('../../../scripts/nodeVersions.js') as { nodeBinary(major: string): string };
const BIN = join(ROOT, '..', '..', 'node_modules', '.bin');
/**
 * wrangler dev reloads the Worker whenever anything under its entry's folder (dist-worker/) is
 * written, which another run of this file, or a build, does while it serves: it serves a copy of
 * wrangler.toml and the bundle, in a folder of this run's own.
 */
const WRANGLER_DIR = mkdtempSync(join(tmpdir(), 'edge-wrangler-'));
/** A runtime serving the example: how to start it, and what it serves. */
interface Runtime {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Keeps 2025-11-25 sessions. */
  sessions: boolean;
  /** False: serves without the environment's bearer JWTs. */
  auth?: boolean;
  /** The Hono app (with its own route beside /mcp). */
  hono?: boolean;
  /** The same bundle as a row before it: only the bearer JWT tests run on it. */
  plainAlready?: boolean;
}

const RUNTIMES: Runtime[] = [
  { name: 'Deno', command: join(BIN, 'deno'), args: ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-sys', 'deno.mjs'], sessions: true },
  { name: 'Bun', command: join(BIN, 'bun'), args: ['bun.mjs'], sessions: true },
  // `export default app`: `deno serve` serves the App's own `fetch` (the fetch handler with its defaults).
  // With Deno's coming default for request.signal (aborted when the client goes, not after each answer), which the row above leaves at today's.
  {
    name: 'Deno (deno serve, export default app)',
    command: join(BIN, 'deno'),
    args: ['serve', '--unstable-no-legacy-abort', '--allow-net', '--allow-read', '--allow-env', '--allow-sys', '--host', '127.0.0.1', '--port', '0', 'deno-serve.mjs'],
    sessions: true,
    auth: false,
  },
  // Cloudflare's workerd, running the Worker bundled from tsc's output; stateless, as Workers are. Served here by wrangler
  // itself (`wrangler dev`, local: no account, no network; it needs Node 22) from wrangler.toml, and below, with bearer
  // JWTs and as the Hono app, by scripts/serve-workerd.mjs (Miniflare, which wrangler dev runs too).
  {
    name: 'workerd (wrangler dev)',
    command: nodeBinary('22'),
    args: [
      join(ROOT, '..', '..', 'node_modules', 'wrangler', 'bin', 'wrangler.js'),
      'dev',
      '--config',
      join(WRANGLER_DIR, 'wrangler.toml'),
      '--local',
      '--ip',
      '127.0.0.1',
      '--inspector-port',
      '0',
      // A port of its own choosing, printed in its `Ready on` line: a port picked here could be taken meanwhile by another test's server.
      '--port',
      '0',
      '--show-interactive-dev-session=false',
      // scripts/test-workerd-latest.js: the newest workerd's date in place of wrangler.toml's (the binary comes from MINIFLARE_WORKERD_PATH).
      ...(process.env.COMPATIBILITY_DATE ? ['--compatibility-date', process.env.COMPATIBILITY_DATE] : []),
    ],
    env: { WRANGLER_SEND_METRICS: 'false' },
    sessions: false,
    auth: false,
  },
  { name: 'workerd (Miniflare)', command: process.execPath, args: ['scripts/serve-workerd.mjs'], sessions: false, plainAlready: true },
  // The Worker file (one module, the quickest to start) served by Deno and Bun: stateless, as any Worker.
  { name: 'Deno (the Worker file)', command: join(BIN, 'deno'), args: ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-sys', 'deno-worker.mjs'], sessions: false },
  { name: 'Bun (the Worker file)', command: join(BIN, 'bun'), args: ['bun-worker.mjs'], sessions: false },
  // The app mounted in a Hono app (@toolwright/hono) beside a route of Hono's own, on each runtime.
  { name: 'Hono on Deno', command: join(BIN, 'deno'), args: ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-sys', 'hono-deno.mjs'], sessions: true, auth: false, hono: true },
  { name: 'Hono on Bun', command: join(BIN, 'bun'), args: ['hono-bun.mjs'], sessions: true, auth: false, hono: true },
  { name: 'Hono on workerd', command: process.execPath, args: ['scripts/serve-workerd.mjs'], env: { WORKER: 'hono-worker.mjs' }, sessions: false, auth: false, hono: true },
];

// The Worker's bundle, from what tsc emitted (the test run builds dist/ first), and wrangler's copy of it.
beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle-worker.mjs')], { stdio: 'inherit' });
  mkdirSync(join(WRANGLER_DIR, 'dist-worker'));
  copyFileSync(join(ROOT, 'wrangler.toml'), join(WRANGLER_DIR, 'wrangler.toml'));
  for (const file of ['worker.mjs', 'worker.mjs.map']) copyFileSync(join(ROOT, 'dist-worker', file), join(WRANGLER_DIR, 'dist-worker', file));
});
afterAll(() => rmSync(WRANGLER_DIR, { recursive: true, force: true }));
const { createEdgeApp } = require('../dist/app.js') as { createEdgeApp: typeof import('../src/app').createEdgeApp };

/** The tools as node serves them from the same build, in process. */
async function nodeTools(): Promise<unknown[]> {
  const handler = createFetchHandler(await createEdgeApp());
  const client = new ModernClient({ name: 'node', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new ModernHttp(new URL('http://localhost/mcp'), { fetch: (input, init) => handler(new Request(input, init)) }));
  const { tools } = await client.listTools();
  await client.close();
  await handler.close();
  return tools;
}

/** How long a runtime may take to listen: Miniflare and wrangler start two processes each, slow on a busy machine. */
const START_TIMEOUT_MS = 90_000;

/** Starts the runtime on a port of its own choosing (PORT=0, or its own flag); resolves with its endpoint once it says it listens. */
function start(command: string, args: string[], env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, PORT: '0', NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const listen = (chunk: string) => {
      output += chunk;
      // Ours print the endpoint; `deno serve` its origin ("Listening on http://127.0.0.1:port/"); wrangler "Ready on http://127.0.0.1:port".
      // Read once the line ends: a chunk may end inside the address.
      const match = /(?:listening|ready) on (\S+)\s/i.exec(output);
      if (match) resolve({ url: new URL('/mcp', match[1]).href, child, stderr: () => output });
    };
    child.stderr!.setEncoding('utf8').on('data', listen);
    child.stdout!.setEncoding('utf8').on('data', listen);
    child.once('exit', (code) => reject(new Error(`${command} exited ${code}: ${output}`)));
    child.once('error', reject);
  });
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A POST with a Host header of our choosing (fetch cannot set one), on a connection of its own: a kept-alive one the server closed would hang up. */
function postWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const req = httpRequest(
      url,
      { method: 'POST', agent: false, headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

// The plain Worker on Miniflare is served with bearer JWTs below (the same bundle runs through wrangler dev here).
describe.each(RUNTIMES.filter((runtime) => !runtime.plainAlready))('the example on $name', ({ command, args, env, sessions, hono }) => {
  let served: Awaited<ReturnType<typeof start>> | undefined;
  let expected: unknown[];

  beforeAll(async () => {
    expected = await nodeTools();
    served = await start(command, args, env);
  }, START_TIMEOUT_MS);
  afterAll(() => stop(served?.child));

  it(`serves a 2025-11-25 client ${sessions ? 'in a session' : 'without a session'}, with the schemas node serves`, async () => {
    const client = new LegacyClient({ name: 'legacy', version: '1' });
    const transport = new LegacyHttp(new URL(served!.url));
    await client.connect(transport);
    if (sessions) expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    else expect(transport.sessionId).toBeUndefined();
    expect(client.getServerVersion()?.name).toBe('edge');
    const { tools } = await client.listTools();
    expect(tools).toEqual(expected);
    expect(textOf(await client.callTool({ name: 'repeat', arguments: { note: 'hi', count: 2, loud: true } }))).toBe('legacy: HI HI');
    const progress: number[] = [];
    const counted = await client.callTool({ name: 'count', arguments: { n: 3 } }, undefined, { onprogress: (p) => void progress.push(p.progress) });
    expect(textOf(counted)).toBe('counted to 3');
    expect(progress).toEqual([1, 2, 3]);
    if (sessions) await transport.terminateSession();
    await client.close();
  });

  it('serves a 2026-07-28 client, with the schemas node serves', async () => {
    const client = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new ModernHttp(new URL(served!.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await client.listTools();
    expect(tools).toEqual(expected);
    expect(textOf(await client.callTool({ name: 'repeat', arguments: { note: 'hi', count: 3, loud: false } }))).toBe('modern: hi hi hi');
    // The decorator metadata made `count` an integer: 1.5 is refused by the schema.
    expect((await client.callTool({ name: 'repeat', arguments: { note: 'hi', count: 1.5, loud: false } })).isError).toBe(true);
    await client.close();
  });

  // Nested DTOs: `@Type(() => X)` from @toolwright/core/dto and from class-transformer itself, built by plainToInstance
  // (the tool checks the instances) and validated by class-validator; in a Worker bundle too, where a computed require() has no module.
  it('builds and validates nested DTOs (@Type, @ValidateNested) as node does', async () => {
    const client = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new ModernHttp(new URL(served!.url)));
    const plan = (args: unknown) => client.callTool({ name: 'plan', arguments: args as Record<string, unknown> });
    expect(textOf(await plan({ owner: { name: 'Ada' }, cards: [{ title: 'a', points: 3 }, { title: 'b' }] }))).toBe('Ada: a (3), b');
    const refused = await plan({ owner: { name: 'Ada' }, cards: [{ title: 'a' }, { title: 'b', points: 40 }] });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('cards[1].points');
    expect(textOf(await plan({ owner: {}, cards: [{ title: 'a' }] }))).toContain('owner.name');
    await client.close();
  });

  if (hono) {
    it("Hono's own route answers beside /mcp", async () => {
      const response = await fetch(new URL('/', served!.url));
      expect(await response.json()).toEqual({ up: true, served: 'by hono' });
    });
  }

  it('keeps the DNS-rebinding defence: a foreign Host gets 403', async () => {
    expect(await postWithHost(served!.url, 'rebound.attacker.example')).toBe(403);
    expect(await postWithHost(served!.url, `localhost:${new URL(served!.url).port}`)).toBe(200);
  });
});

// `export default app` takes the defaults: no auth from the environment.
describe.each(RUNTIMES.filter((runtime) => runtime.auth !== false))('bearer JWTs on $name (jwtVerifier: jose on Web Crypto)', ({ command, args }) => {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwks = { keys: [{ ...keys.publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' }] };
  let served: Awaited<ReturnType<typeof start>> | undefined;

  beforeAll(async () => {
    served = await start(command, args, { JWKS: JSON.stringify(jwks), ISSUER, RESOURCE });
  }, START_TIMEOUT_MS);
  afterAll(() => stop(served?.child));

  it('serves callers with a valid token in both eras', async () => {
    const headers = { authorization: `Bearer ${jwt(keys.privateKey, {})}` };
    const legacy = new LegacyClient({ name: 'legacy', version: '1' });
    await legacy.connect(new LegacyHttp(new URL(served!.url), { requestInit: { headers } }));
    expect(textOf(await legacy.callTool({ name: 'repeat', arguments: { note: 'jwt', count: 1, loud: false } }))).toBe('legacy: jwt');
    await legacy.close();
    const modern = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await modern.connect(new ModernHttp(new URL(served!.url), { requestInit: { headers } }));
    expect(textOf(await modern.callTool({ name: 'repeat', arguments: { note: 'jwt', count: 1, loud: false } }))).toBe('modern: jwt');
    await modern.close();
  });

  it('refuses a missing, forged, foreign or expired token with 401 and the RFC 9728 challenge, and serves the metadata', async () => {
    const status = async (token?: string) => {
      const response = await fetch(served!.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
      });
      await response.body?.cancel();
      return { status: response.status, challenge: response.headers.get('www-authenticate') };
    };
    expect(await status()).toEqual({ status: 401, challenge: 'Bearer resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource/mcp"' });
    const forged = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    expect((await status(jwt(forged, {}))).status).toBe(401);
    expect((await status(jwt(keys.privateKey, { aud: 'https://other.example.test/mcp' }))).status).toBe(401);
    expect((await status(jwt(keys.privateKey, { exp: Math.floor(Date.now() / 1000) - 600 }))).challenge).toContain('error="invalid_token"');
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', served!.url));
    expect(await metadata.json()).toMatchObject({ resource: RESOURCE, authorization_servers: [ISSUER] });
  });
});

const ISSUER = 'https://issuer.example.test';
const RESOURCE = 'https://mcp.example.test/mcp';
const b64 = (value: object | Buffer) => (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');

/** An RS256 JWT for RESOURCE from ISSUER, signed here with node:crypto. */
function jwt(key: KeyObject, claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const body = `${b64({ alg: 'RS256', typ: 'JWT', kid: 'k1' })}.${b64({ iss: ISSUER, aud: RESOURCE, sub: 'alice', client_id: 'app-1', iat: now, exp: now + 600, ...claims })}`;
  return `${body}.${b64(sign('sha256', Buffer.from(body), key))}`;
}

it('the tools carry the types only decorator metadata gives', async () => {
  const tools = (await nodeTools()) as { name: string; inputSchema: { properties: Record<string, { type?: string }> } }[];
  const repeat = tools.find((t) => t.name === 'repeat')!;
  expect(repeat.inputSchema.properties.count.type).toBe('integer');
  expect(repeat.inputSchema.properties.loud.type).toBe('boolean');
  expect(repeat.inputSchema.properties.note.type).toBe('string');
  // `@Type(() => Card)` gives the array's items, which design:type (Array) cannot.
  const plan = tools.find((t) => t.name === 'plan')! as unknown as { inputSchema: { properties: { owner: { required: string[] }; cards: { items: { required: string[] } } } } };
  expect(plan.inputSchema.properties.owner.required).toEqual(['name']);
  expect(plan.inputSchema.properties.cards.items.required).toEqual(['title']);
});
