import 'reflect-metadata';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Tool, type AuthInfo } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { rateLimit } from '@toolwright/server/middleware';

/**
 * Per-caller rate limits behind a verifier that names no subject (API keys of one client): each
 * key is a caller of its own, as it is for sessions and tasks, so one key that spends its budget
 * leaves every other key's alone. Over real HTTP, with the SDK clients of both eras.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const keys = new Map<string, AuthInfo>([
  ['key-alice', { token: 'key-alice', clientId: 'api-keys', scopes: [] }],
  ['key-mallory', { token: 'key-mallory', clientId: 'api-keys', scopes: [] }],
  // Two users of one OAuth client: keyed by client and subject, whatever the token.
  ['jwt-ada-1', { token: 'jwt-ada-1', clientId: 'web', scopes: [], extra: { sub: 'ada' } }],
  ['jwt-ada-2', { token: 'jwt-ada-2', clientId: 'web', scopes: [], extra: { sub: 'ada' } }],
  ['jwt-bob', { token: 'jwt-bob', clientId: 'web', scopes: [], extra: { sub: 'bob' } }],
]);
const verifyToken = (token: string) => keys.get(token);

class Search {
  @Tool({ description: 'Searches.' })
  search() {
    return 'found';
  }
}

type Era = 'legacy' | 'modern';
async function connect(url: URL, era: Era, token: string): Promise<LegacyClient | ModernClient> {
  const requestInit = { headers: { authorization: `Bearer ${token}` } };
  if (era === 'legacy') {
    const client = new LegacyClient({ name: 'legacy', version: '1' });
    await client.connect(new LegacyHttp(url, { requestInit }));
    return client;
  }
  const client = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new ModernHttp(url, { requestInit }));
  return client;
}

const refused = async (client: LegacyClient | ModernClient) => Boolean((await client.callTool({ name: 'search', arguments: {} })).isError);

describe.each<Era>(['legacy', 'modern'])('rateLimit() behind a verifier that names no subject (%s client)', (era) => {
  let listener: HttpListener;
  let url: URL;
  beforeEach(async () => {
    // A slow refill: a bucket spent in a test stays spent for the rest of it.
    const app = await createApp({ name: 'rl-keys', version: '1', tools: [Search], middleware: [rateLimit({ capacity: 2, refillPerSecond: 0.001 })], logger: silent });
    listener = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, requestLogLevel: 'silent', exitOnSignal: false, auth: { verifyToken } });
    url = new URL(listener.url);
  });
  afterEach(() => listener.close());

  it("gives each key of one client a budget of its own: one key spends its budget, another key's calls still run", async () => {
    const alice = await connect(url, era, 'key-alice');
    const mallory = await connect(url, era, 'key-mallory');
    try {
      expect(await refused(mallory)).toBe(false);
      expect(await refused(mallory)).toBe(false);
      expect(await refused(mallory)).toBe(true);
      expect(await refused(alice)).toBe(false);
      expect(await refused(alice)).toBe(false);
      expect(await refused(alice)).toBe(true);
    } finally {
      await Promise.all([alice.close(), mallory.close()]);
    }
  });

  it('keys a caller with a subject by client and subject: two tokens of one user share a budget, another user has its own', async () => {
    const first = await connect(url, era, 'jwt-ada-1');
    const second = await connect(url, era, 'jwt-ada-2');
    const bob = await connect(url, era, 'jwt-bob');
    try {
      expect(await refused(first)).toBe(false);
      expect(await refused(second)).toBe(false);
      expect(await refused(first)).toBe(true);
      expect(await refused(second)).toBe(true);
      expect(await refused(bob)).toBe(false);
    } finally {
      await Promise.all([first.close(), second.close(), bob.close()]);
    }
  });
});
