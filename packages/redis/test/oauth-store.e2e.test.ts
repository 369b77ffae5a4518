import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createRedisCluster, createRedisMiddlewareStores, createRedisOAuthStore, type RedisCluster } from '@toolwright/redis';
import { CALLBACK, codeFor, mcpStatus, pkcePair, registerClient, tokenRequest } from '../../oauth/test/fixtures/rawFlow';
import { serveOAuth, testClock, type Served } from '../../oauth/test/fixtures/serveOAuth';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';

/**
 * Two instances of an OAuth-protected server behind one public URL, sharing a Redis store
 * (`createRedisOAuthStore`), the signing key and the secret: each step of a sign-in may land
 * on either, and codes and refresh tokens are still used once across both.
 */
describe('@toolwright/oauth on Redis (createRedisOAuthStore), two instances', () => {
  let redis: RedisServer;
  let cluster: RedisCluster;
  let a: Served;
  let b: Served;
  const clock = testClock();

  beforeAll(async () => {
    redis = await startRedisServer();
    cluster = await createRedisCluster({ url: redis.url, prefix: `oauth-${randomUUID().slice(0, 8)}:`, logWrite: () => {} });
    const signingKey = { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), kid: 'shared', alg: 'ES256' };
    // Rate limits shared through the middleware stores' bucket (one Lua step per request), by a client address the test names.
    const rateLimit = {
      store: createRedisMiddlewareStores(cluster).rateLimit,
      register: { burst: 3, perMinute: 1 },
      clientAddressOf: (request: Request) => request.headers.get('x-test-client') ?? undefined,
    };
    const shared = { store: createRedisOAuthStore(cluster), signingKey, secret: randomUUID() + randomUUID(), now: clock.now, rateLimit };
    a = await serveOAuth('node', shared);
    // B answers for A's public URL, as an instance behind the same load balancer does.
    b = await serveOAuth('node', { ...shared, issuer: a.oauth.issuer, resource: a.mcpUrl });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await cluster?.close();
    await redis?.close();
  });

  it('a code from one instance is exchanged at the other, once: the replay at the first revokes the grant on both', async () => {
    const { clientId, code, verifier } = await codeFor(a.base);
    const form = { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK };
    const tokens = await tokenRequest(b.base, form);
    expect(tokens.status).toBe(200);
    const access = String(tokens.body.access_token);
    expect(await mcpStatus(a.mcpUrl, access)).not.toBe(401);
    expect(await mcpStatus(b.mcpUrl, access)).not.toBe(401);
    expect((await tokenRequest(a.base, form)).body.error).toBe('invalid_grant');
    expect(await mcpStatus(a.mcpUrl, access)).toBe(401);
    expect(await mcpStatus(b.mcpUrl, access)).toBe(401);
  });

  it('a code presented at one instance by another client, or with a wrong verifier, is not consumed: its own client redeems it at the other, once', async () => {
    const { clientId, code, verifier } = await codeFor(a.base);
    const attacker = String((await registerClient(b.base)).body.client_id);
    const form = { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK };
    expect((await tokenRequest(b.base, { ...form, client_id: attacker })).body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/issued to another client/) });
    expect((await tokenRequest(b.base, { ...form, code_verifier: pkcePair().verifier })).body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/does not match/) });
    const tokens = await tokenRequest(a.base, form);
    expect(tokens.status).toBe(200);
    const access = String(tokens.body.access_token);
    // Another client's try after the redemption revokes nothing; its own client's second one does, on both instances.
    expect((await tokenRequest(b.base, { ...form, client_id: attacker })).body.error).toBe('invalid_grant');
    expect(await mcpStatus(b.mcpUrl, access)).not.toBe(401);
    expect((await tokenRequest(b.base, form)).body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/already used/) });
    expect(await mcpStatus(a.mcpUrl, access)).toBe(401);
  });

  it('10 concurrent refreshes spread over both instances all succeed with one successor; a replay after the grace window revokes the family everywhere', async () => {
    // The browser stays on one instance (the consent cookie's origin in this test); the client's requests go to both.
    const { clientId, code, verifier } = await codeFor(a.base);
    const first = await tokenRequest(b.base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK });
    const refresh = { grant_type: 'refresh_token', client_id: clientId, refresh_token: String(first.body.refresh_token) };
    const racing = await Promise.all(Array.from({ length: 10 }, (_, i) => tokenRequest(i % 2 ? a.base : b.base, refresh)));
    expect(racing.map((r) => r.status)).toEqual(new Array(10).fill(200));
    expect(new Set(racing.map((r) => r.body.refresh_token)).size).toBe(1);
    const successor = String(racing[0]!.body.refresh_token);
    clock.advance(11);
    expect((await tokenRequest(b.base, refresh)).body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/already used/) });
    expect((await tokenRequest(a.base, { ...refresh, refresh_token: successor })).body.error).toBe('invalid_grant');
    expect(await mcpStatus(a.mcpUrl, String(racing[3]!.body.access_token))).toBe(401);
  });

  it('rate limits count across both instances: the burst spent on one is spent on the other', async () => {
    const register = (base: string) =>
      fetch(`${base}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-test-client': '203.0.113.50' },
        body: JSON.stringify({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }),
      });
    const statuses = [];
    for (const base of [a.base, b.base, a.base, b.base]) statuses.push((await register(base)).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    const refused = await register(a.base);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
