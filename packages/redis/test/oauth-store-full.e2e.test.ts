import { randomUUID } from 'node:crypto';
import { ToolwrightError, type ToolLogger } from '@toolwright/core';
import { createRedisCluster, createRedisOAuthStore, type RedisCluster, type RedisOAuthStore } from '@toolwright/redis';
import { CALLBACK, codeFor, mcpStatus, tokenRequest } from '../../oauth/test/fixtures/rawFlow';
import { serveOAuth, type Served } from '../../oauth/test/fixtures/serveOAuth';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';

/**
 * A Redis at `maxmemory` under `noeviction` (the default policy) refuses every SET, even of a
 * key it holds, and still runs GET, EXISTS and DEL. The OAuth store on it refuses only new
 * entries, with an error whose code `@toolwright/oauth` answers 503 with `Retry-After`
 * (never 500), and still replaces, finds and deletes what is stored, so a spent code or
 * refresh token is still caught and a grant still revoked.
 */
describe('createRedisOAuthStore when Redis is out of memory (noeviction)', () => {
  let redis: RedisServer;
  let cluster: RedisCluster;
  let store: RedisOAuthStore;

  /** `maxmemory 1`: Redis always holds more than one byte, so it is full until set back to 0 (no limit). */
  const full = async (on: boolean) => {
    await cluster.redis.config('SET', 'maxmemory-policy', 'noeviction');
    await cluster.redis.config('SET', 'maxmemory', on ? '1' : '0');
  };
  const storeFull = (what: string) =>
    expect.objectContaining({
      name: 'RedisOAuthStoreFullError',
      kind: 'internal',
      code: 'OAUTH_STORE_FULL',
      retryAfterSeconds: 60,
      message: expect.stringMatching(new RegExp(`^@toolwright/redis: the OAuth store cannot keep a new '${what}' entry: Redis is out of memory \\(OOM command not allowed`)),
    });

  beforeAll(async () => {
    redis = await startRedisServer();
    cluster = await createRedisCluster({ url: redis.url, prefix: `oauth-full-${randomUUID().slice(0, 8)}:`, logWrite: () => {} });
    store = createRedisOAuthStore(cluster);
  });
  afterAll(async () => {
    await cluster?.close();
    await redis?.close();
  });
  afterEach(() => full(false));

  it('refuses a new entry with OAUTH_STORE_FULL and still replaces, finds and deletes entries it holds', async () => {
    await store.set('client:kept', 'v1', 60);
    expect(await store.add('rt-used:spent', '1', 60)).toBe(true);
    await full(true);
    // What Redis itself does at maxmemory under noeviction: SET is refused even for a key it holds.
    await expect(cluster.redis.set(`${cluster.prefix}oauth:client:kept`, 'v2')).rejects.toThrow(/^OOM command not allowed/);

    await store.set('client:kept', 'v2', 500);
    expect(await store.get('client:kept')).toBe('v2');
    expect(await cluster.redis.ttl(`${cluster.prefix}oauth:client:kept`)).toBeGreaterThan(400);
    expect(await store.add('rt-used:spent', '1', 60)).toBe(false);

    const secretId = 'id-that-stays-out-of-messages';
    const refusedAdd = await store.add(`code-used:${secretId}`, '1', 60).catch((error: unknown) => error);
    expect(refusedAdd).toEqual(storeFull('code-used:'));
    expect(ToolwrightError.is(refusedAdd)).toBe(true);
    expect((refusedAdd as Error).message).not.toContain(secretId);
    await expect(store.set(`grant:${secretId}`, '{}', 60)).rejects.toEqual(storeFull('grant:'));
    expect(await store.get(`grant:${secretId}`)).toBeUndefined();

    await store.delete('client:kept');
    expect(await store.get('client:kept')).toBeUndefined();

    await full(false);
    expect(await store.add(`code-used:${secretId}`, '1', 60)).toBe(true);
  });

  describe('behind @toolwright/oauth', () => {
    let served: Served;
    const errors: string[] = [];
    const warnings: string[] = [];
    const logger: ToolLogger = { debug: () => {}, info: () => {}, warn: (message) => void warnings.push(message), error: (message) => void errors.push(message) };
    const register = () =>
      fetch(`${served.base}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }) });

    beforeAll(async () => {
      served = await serveOAuth('node', { store, logger });
    });
    afterAll(async () => {
      await served?.close();
    });

    it('a registration is answered 503 with Retry-After, a replayed code still revokes its grant, and nothing is a 500', async () => {
      const { clientId, code, verifier } = await codeFor(served.base);
      const form = { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK };
      const tokens = await tokenRequest(served.base, form);
      expect(tokens.status).toBe(200);
      const access = String(tokens.body.access_token);
      await full(true);

      const refused = await register();
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(await refused.json()).toEqual({ error: 'temporarily_unavailable', error_description: 'The authorization server cannot take this request now: retry in 60 s.' });

      // The spent code is found (its mark is there) and its grant deleted, with Redis still full.
      expect(await tokenRequest(served.base, form)).toEqual({ status: 400, body: expect.objectContaining({ error: 'invalid_grant' }) });
      expect(await mcpStatus(served.mcpUrl, access)).toBe(401);

      await full(false);
      expect((await register()).status).toBe(201);
      expect(errors).toEqual([]);
      expect(warnings).toEqual([expect.stringMatching(/\/register answered 503 \(the store is full.*cannot keep a new 'client:' entry: Redis is out of memory/)]);
    });
  });
});
