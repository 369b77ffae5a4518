import { MemoryOAuthStore } from '@toolwright/oauth';
import { jsonRoute, startDocumentHost } from './fixtures/documentHost';
import { CALLBACK, authorizeUrl, codeFor, mcpStatus, pkcePair, tokenRequest } from './fixtures/rawFlow';
import { serveOAuth, testClock, type Served } from './fixtures/serveOAuth';

/** As many entries as the store may hold (half for clients and documents, a quarter for pending sign-ins): the test fills those shares with what callers can make up, then checks a registration still fits once those have gone stale. */
const CAPACITY = 60;

/**
 * What a caller writes into the store by sending `/authorize` requests with client IDs it makes
 * up (each a client ID metadata document URL) lasts only as long as it is of use: a refused
 * document its `failureCacheSeconds`, a document without an ETag its freshness. It does not
 * stay for a day, filling the store until every sign-in and registration fails.
 */
describe('the OAuth store keeps what callers make up only while it is of use', () => {
  let host: Awaited<ReturnType<typeof startDocumentHost>>;
  let served: Served;
  let store: MemoryOAuthStore;
  const clock = testClock();

  beforeAll(async () => {
    host = await startDocumentHost();
    store = new MemoryOAuthStore({ now: clock.now, maxEntries: CAPACITY });
    served = await serveOAuth('node', { now: clock.now, store, consent: false, signIn: () => new Response('log in first'), clientDocuments: { fetcher: host.fetcher() } });
  });
  afterAll(async () => {
    await served?.close();
    await host?.close();
  });

  const open = (clientId: string) => fetch(authorizeUrl(served.base, { client_id: clientId, code_challenge: pkcePair().challenge }), { redirect: 'manual' });
  const register = () =>
    fetch(`${served.base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }),
    });

  it('refused documents (one per made-up URL) leave the store after failureCacheSeconds', async () => {
    for (let i = 0; i < CAPACITY / 2; i++) expect((await open(`https://client.example/made-up/${i}.json`)).status).toBe(400);
    expect(store.size).toBe(CAPACITY / 2);
    // Past the share of clients and documents: a page saying when to come back, not a 500.
    const refused = await open('https://client.example/made-up/one-more.json');
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    clock.advance(31); // the default failureCacheSeconds is 30
    const registered = await register();
    expect(registered.status).toBe(201);
    expect(store.size).toBe(1);
    await store.delete(`client:${((await registered.json()) as { client_id: string }).client_id}`);
  });

  it('documents without an ETag leave the store once stale; one with an ETag stays to be revalidated', async () => {
    const signInsTtl = 600;
    const documents = CAPACITY / 4;
    for (let i = 0; i < documents - 1; i++) {
      const url = `https://client.example/plain/${i}.json`;
      host.routes.set(`client.example/plain/${i}.json`, jsonRoute({ client_id: url, redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }, { 'cache-control': 'max-age=120' }));
      expect((await open(url)).status).toBe(200);
    }
    const tagged = 'https://client.example/tagged.json';
    host.routes.set('client.example/tagged.json', jsonRoute({ client_id: tagged, redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }, { 'cache-control': 'max-age=120', etag: '"t1"' }));
    expect((await open(tagged)).status).toBe(200);
    // Each sign-in the app's hook left pending (10 minutes) holds an entry too.
    expect(store.size).toBe(2 * documents);
    clock.advance(signInsTtl + 1);
    expect((await register()).status).toBe(201);
    // The registration and the tagged document, kept to be revalidated with If-None-Match.
    expect(store.size).toBe(2);
  });
});

/**
 * A live grant refreshed for days holds an entry or two in the store, not two more per refresh
 * for 30 days: a store of 20 entries serves a client that refreshes every 5 minutes, and a
 * refresh token rotated away long ago is still told a replay that revokes the grant.
 */
describe('a refreshed grant holds a bounded number of store entries', () => {
  let served: Served;
  const clock = testClock();
  beforeAll(async () => {
    served = await serveOAuth('node', { now: clock.now, store: new MemoryOAuthStore({ now: clock.now, maxEntries: 20 }) });
  });
  afterAll(async () => {
    await served?.close();
  });

  it('refreshes every 5 minutes for hours within 20 entries, and still revokes the grant on the replay of its first refresh token', async () => {
    const { clientId, code, verifier } = await codeFor(served.base);
    const first = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK });
    expect(first.status).toBe(200);
    let current = first;
    for (let i = 0; i < 60; i++) {
      clock.advance(300);
      current = await tokenRequest(served.base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: String(current.body.refresh_token) });
      expect(current.status).toBe(200);
    }
    expect(await mcpStatus(served.mcpUrl, String(current.body.access_token))).not.toBe(401);
    const replay = await tokenRequest(served.base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: String(first.body.refresh_token) });
    expect(replay).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringMatching(/already used.*revoked/) } });
    expect((await tokenRequest(served.base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: String(current.body.refresh_token) })).body.error).toBe('invalid_grant');
    expect(await mcpStatus(served.mcpUrl, String(current.body.access_token))).toBe(401);
  });

  it('revoking a refresh token rotated away since (no record left) still revokes its grant (RFC 7009)', async () => {
    const { clientId, code, verifier } = await codeFor(served.base);
    const first = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK });
    clock.advance(300);
    const next = await tokenRequest(served.base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: String(first.body.refresh_token) });
    expect(next.status).toBe(200);
    clock.advance(300); // past the grace window: the first token's records are gone
    const revoked = await fetch(`${served.base}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, token: String(first.body.refresh_token) }),
    });
    expect(revoked.status).toBe(200);
    expect(await mcpStatus(served.mcpUrl, String(next.body.access_token))).toBe(401);
  });
});
