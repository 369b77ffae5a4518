import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnListening, type ListeningChild } from '../../server/test/fixtures/spawnListening';
import { MemoryClientProvider } from './fixtures/clientProvider';
import { CALLBACK, authorizeUrl, pkcePair } from './fixtures/rawFlow';
import { resultOf, signInClient } from './fixtures/signIn';

const FIXTURES = join(__dirname, 'fixtures', 'edge');
const BIN = join(__dirname, '..', '..', '..', 'node_modules', '.bin');
const bundles = mkdtempSync(join(tmpdir(), 'tw-oauth-worker-'));

/**
 * The authorization server on the edge runtimes: `createApp({ oauth })` served by
 * `createFetchHandler` in real Deno and Bun processes and in workerd (Miniflare), from the build;
 * the SDK v2 client on node discovers it, registers, signs in and calls a tool; metadata documents
 * on loopback addresses and local names are refused by the runtime's document fetcher.
 */
const RUNTIMES = [
  { name: 'Deno', command: join(BIN, 'deno'), args: ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-sys', 'deno-oauth.mjs'] },
  { name: 'Bun', command: join(BIN, 'bun'), args: ['bun-oauth.mjs'] },
  { name: 'workerd', command: process.execPath, args: ['workerd-oauth.mjs', bundles] },
];

/**
 * Starts the runtime on a free port (PORT): its issuer names the port, so the port is picked before it starts, and
 * again when another test's server took it meanwhile (the runtime then says so and exits).
 */
function start(name: string, command: string, args: string[]): Promise<ListeningChild> {
  return spawnListening((port) => spawn(command, args, { cwd: FIXTURES, env: { ...process.env, PORT: String(port), NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] }), {
    listening: /listening on/i,
    name,
  });
}

afterAll(() => rmSync(bundles, { recursive: true, force: true }));

// The runtimes start at once (their start-up overlaps), each on a free port of its own.
const served = new Map<string, { base: string; child: ChildProcess }>();
beforeAll(async () => {
  await Promise.all(
    RUNTIMES.map(async ({ name, command, args }) => {
      const { port, child } = await start(name, command, args);
      served.set(name, { base: `http://127.0.0.1:${port}`, child });
    }),
  );
}, 30_000);
afterAll(() =>
  Promise.all(
    [...served.values()].map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  ),
);

describe.each(RUNTIMES)('the authorization server on $name', ({ name }) => {
  let base: string;
  beforeAll(() => {
    base = served.get(name)!.base;
  });

  it('signs the SDK v2 client in (discovery, registration, PKCE, consent) and serves its scoped call', async () => {
    const provider = new MemoryClientProvider(CALLBACK, { client_name: 'Edge client' });
    const client = await signInClient(`${base}/mcp`, provider);
    expect(provider.tokens()!.access_token.split('.')).toHaveLength(3);
    expect(resultOf(await client.callTool({ name: 'whoami', arguments: {} }))).toEqual({ sub: 'edge-user', clientId: provider.info!.client_id, scopes: ['notes:read'] });
    await client.close();
  });

  it('refuses client ID metadata documents on loopback addresses and local names (the runtime’s fetch-based document fetcher)', async () => {
    for (const [clientId, reason] of [
      // The client is told only that the host is not public; the log has which address (or name) it is.
      ['https://127.0.0.1/client.json', /its host \(or that of a URL it redirects to\) does not resolve to a public address/],
      ['https://localhost/client.json', /its host \(or that of a URL it redirects to\) does not resolve to a public address/],
    ] as const) {
      const response = await fetch(authorizeUrl(base, { client_id: clientId, code_challenge: pkcePair().challenge }), { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(reason);
    }
  });
});
