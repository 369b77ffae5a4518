import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolLogger } from '@toolwright/core';
import { MemoryOAuthStore } from '@toolwright/oauth';
import { TestBrowser } from './fixtures/browser';
import { ClientKey } from './fixtures/clientKey';
import { corpUpstream } from './fixtures/corpUpstream';
import { startDocumentHost } from './fixtures/documentHost';
import { CALLBACK, authorizeUrl, codeFor, mcpStatus, pkcePair, registerClient, tokenRequest } from './fixtures/rawFlow';
import { serveOAuth, testClock, type Served } from './fixtures/serveOAuth';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** A small store: a quarter of it for pending sign-ins, half for clients and what any client can make. */
const MAX_ENTRIES = 40;

/** A user's grant: refreshing it rotates the refresh token (new store entries) and the new access token is served; the new refresh token. */
async function refreshes(served: Served, clientId: string, refreshToken: string): Promise<string> {
  const refreshed = await tokenRequest(served.base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });
  expect(refreshed).toMatchObject({ status: 200, body: { refresh_token: expect.any(String) } });
  expect(await mcpStatus(served.mcpUrl, String(refreshed.body.access_token))).not.toBe(401);
  return String(refreshed.body.refresh_token);
}

/** A public client signed in through the consent page: its id and refresh token. */
async function signedInUser(served: Served): Promise<{ clientId: string; refreshToken: string }> {
  const { clientId, code, verifier } = await codeFor(served.base);
  const tokens = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK });
  expect(tokens.status).toBe(200);
  return { clientId, refreshToken: String(tokens.body.refresh_token) };
}

/**
 * What any caller can make the authorization server store counts against a share of the store
 * (clients, or pending sign-ins), never against the room left for the grants and refresh tokens
 * of users already signed in. Each vector floods a store of 40 entries; afterwards an existing
 * user still refreshes.
 */
describe('what callers can make the OAuth store keep stays in its share', () => {
  let served: Served | undefined;
  /** The server's log: store-full warnings, and no errors (no 500). */
  let warnings: string[] = [];
  let errors: string[] = [];
  const logger: ToolLogger = { debug: () => {}, info: () => {}, warn: (message) => void warnings.push(message), error: (message) => void errors.push(message) };
  afterEach(async () => {
    await served?.close();
    served = undefined;
    expect(errors).toEqual([]);
    expect(warnings.every((warning) => /store is full/.test(warning))).toBe(true);
    warnings = [];
    errors = [];
  });

  it('private_key_jwt assertions: a registered client sending a fresh assertion per failing /token request leaves nothing in the store', async () => {
    const store = new MemoryOAuthStore({ maxEntries: MAX_ENTRIES });
    served = await serveOAuth('node', { store, logger });
    const user = await signedInUser(served);
    const key = new ClientKey();
    const registered = await registerClient(served.base, { token_endpoint_auth_method: 'private_key_jwt', jwks: key.jwks });
    const clientId = String(registered.body.client_id);
    const held = store.size;
    const statuses: number[] = [];
    for (let i = 0; i < MAX_ENTRIES + 10; i++) {
      const answer = await tokenRequest(served.base, {
        grant_type: 'refresh_token',
        refresh_token: `made-up-${i}`,
        client_assertion_type: ASSERTION_TYPE,
        client_assertion: key.assertion(clientId, served.oauth.issuer),
      });
      statuses.push(answer.status);
    }
    // A request refused for its refresh token spends no jti: the store holds what it held.
    expect(store.size).toBe(held);
    expect(statuses).toEqual(statuses.map(() => 400));
    await refreshes(served, user.clientId, await refreshes(served, user.clientId, user.refreshToken));
  });

  it('jwks_uri keys: with the clients share full, fetched keys check their request without being cached', async () => {
    const host = await startDocumentHost();
    try {
      const store = new MemoryOAuthStore({ maxEntries: MAX_ENTRIES });
      served = await serveOAuth('node', { store, logger, clientDocuments: { fetcher: host.fetcher() } });
      const user = await signedInUser(served);
      // Clients registered until their share is full, each with its own key set at its own jwks_uri.
      const keyed: { clientId: string; key: ClientKey }[] = [];
      for (let i = 0; ; i++) {
        const key = new ClientKey();
        host.routes.set(`client.example/jwks/${i}.json`, (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(key.jwks)));
        const registered = await registerClient(served.base, { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: `https://client.example/jwks/${i}.json` });
        if (registered.status === 503) break;
        expect(registered.status).toBe(201);
        keyed.push({ clientId: String(registered.body.client_id), key });
      }
      expect(keyed).toHaveLength(MAX_ENTRIES / 2 - 1);
      const held = store.size;
      // Each then asks for a token: its keys are fetched and check the assertion (the refresh token is refused), but the full share keeps no copy.
      const statuses: number[] = [];
      for (const { clientId, key } of keyed) {
        const answer = await tokenRequest(served.base, {
          grant_type: 'refresh_token',
          refresh_token: 'made-up',
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: key.assertion(clientId, served.oauth.issuer),
        });
        statuses.push(answer.status);
        expect(answer.body.error).toBe('invalid_grant');
      }
      expect(statuses).toEqual(keyed.map(() => 400));
      expect(store.size).toBe(held);
      await refreshes(served, user.clientId, await refreshes(served, user.clientId, user.refreshToken));
    } finally {
      await host.close();
    }
  });

  it('signed-in private_key_jwt clients (jwks, and jwks_uri with its key cache expired) still refresh once strangers fill the clients share', async () => {
    const host = await startDocumentHost();
    try {
      const clock = testClock();
      const store = new MemoryOAuthStore({ maxEntries: MAX_ENTRIES, now: clock.now });
      served = await serveOAuth('node', { store, logger, now: clock.now, clientDocuments: { fetcher: host.fetcher() } });
      const inline = new ClientKey(undefined, clock.now);
      const atUri = new ClientKey(undefined, clock.now);
      host.routes.set('client.example/jwks/signed-in.json', (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(atUri.jwks)));
      const signedIn: { clientId: string; key: ClientKey; refreshToken: string }[] = [];
      for (const [key, metadata] of [
        [inline, { jwks: inline.jwks }],
        [atUri, { jwks_uri: 'https://client.example/jwks/signed-in.json' }],
      ] as const) {
        const clientId = String((await registerClient(served.base, { token_endpoint_auth_method: 'private_key_jwt', ...metadata })).body.client_id);
        const { code, verifier } = await codeFor(served.base, {}, clientId);
        const assertion = { client_assertion_type: ASSERTION_TYPE, client_assertion: key.assertion(clientId, served.oauth.issuer) };
        const tokens = await tokenRequest(served.base, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK, ...assertion });
        expect(tokens.status).toBe(200);
        signedIn.push({ clientId, key, refreshToken: String(tokens.body.refresh_token) });
      }
      // The keys cached from jwks_uri expire; strangers register public clients until /register answers 503.
      clock.advance(301);
      let registrations = 0;
      while ((await registerClient(served.base)).status === 201) registrations++;
      expect(registrations).toBeGreaterThan(0);
      for (const { clientId, key, refreshToken } of signedIn) {
        const refreshed = await tokenRequest(served.base, {
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: key.assertion(clientId, served.oauth.issuer),
        });
        expect({ clientId, status: refreshed.status, error: refreshed.body.error }).toEqual({ clientId, status: 200, error: undefined });
        expect(await mcpStatus(served.mcpUrl, String(refreshed.body.access_token))).not.toBe(401);
      }
    } finally {
      await host.close();
    }
  });

  describe('upstream sign-ins answered with error=...', () => {
    let provider: { server: Server; base: string };
    beforeAll(async () => {
      provider = await startProvider();
    });
    afterAll(() => new Promise<void>((resolve) => provider.server.close(() => resolve())));
    /** The upstream provider the sign-ins go through, signing everyone in as ada. */
    const adaUpstream = () => corpUpstream(provider.base, { map: () => ({ subject: 'ada' }) });

    it('fill only the sign-ins share: /authorize gets 503 past it, and a user signed in through the provider still refreshes', async () => {
      const store = new MemoryOAuthStore({ maxEntries: MAX_ENTRIES });
      const upstream = adaUpstream();
      served = await serveOAuth('node', { store, logger, upstream, secret: 'a-test-secret-of-at-least-32-characters' });
      const clientId = String((await registerClient(served.base)).body.client_id);
      const pkce = pkcePair();
      const callback = await new TestBrowser().authorize(authorizeUrl(served.base, { client_id: clientId, code_challenge: pkce.challenge }), CALLBACK);
      const tokens = await tokenRequest(served.base, {
        grant_type: 'authorization_code',
        client_id: clientId,
        code: callback.searchParams.get('code')!,
        code_verifier: pkce.verifier,
        redirect_uri: CALLBACK,
      });
      expect(tokens.status).toBe(200);

      // A caller starts sign-ins and answers each callback itself, as a provider refusing the user would.
      const statuses: number[] = [];
      for (let i = 0; i < MAX_ENTRIES + 10; i++) {
        const started = await fetch(authorizeUrl(served.base, { client_id: clientId, code_challenge: pkcePair().challenge }), { redirect: 'manual' });
        statuses.push(started.status);
        if (started.status !== 302) {
          await started.body?.cancel();
          continue;
        }
        const { back } = deniedCallbackOf(started);
        const answered = await fetch(back, { redirect: 'manual' });
        expect(new URL(answered.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
      }
      await refreshes(served, clientId, await refreshes(served, clientId, String(tokens.body.refresh_token)));
      expect(statuses).toContain(503);
      expect(statuses.filter((status) => status !== 302 && status !== 503)).toEqual([]);
      expect(store.size).toBeLessThan(MAX_ENTRIES);
    });

    it('the callback marks the state answered before it deletes it, for a minute, so no one takes its place in between', async () => {
      const clock = testClock();
      /** What the callback does with the sign-in's state: the mark is added while the state still holds its place. */
      const steps: string[] = [];
      class WatchedStore extends MemoryOAuthStore {
        override async add(key: string, value: string, ttlSeconds: number): Promise<boolean> {
          if (key.startsWith('upstream-state:')) steps.push(`add mark for ${ttlSeconds} s`);
          return super.add(key, value, ttlSeconds);
        }
        override async delete(key: string): Promise<void> {
          if (key.startsWith('upstream-state:')) steps.push('delete state');
          return super.delete(key);
        }
      }
      const store = new WatchedStore({ maxEntries: MAX_ENTRIES, now: clock.now });
      const upstream = adaUpstream();
      served = await serveOAuth('node', { store, logger, now: clock.now, upstream, secret: 'a-test-secret-of-at-least-32-characters' });
      const clientId = String((await registerClient(served.base)).body.client_id);
      const started = await fetch(authorizeUrl(served.base, { client_id: clientId, code_challenge: pkcePair().challenge }), { redirect: 'manual' });
      const { state, back } = deniedCallbackOf(started);
      const answered = await fetch(back, { redirect: 'manual' });
      expect(new URL(answered.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
      expect(steps).toEqual(['add mark for 60 s', 'delete state']);
      // The same answer again is refused, and after a minute its mark is gone from the store.
      const again = await fetch(back, { redirect: 'manual' });
      expect(again.status).toBe(400);
      await again.body?.cancel();
      clock.advance(61);
      expect(await store.get(`upstream-state:${createHash('sha256').update(state).digest('base64url')}:used`)).toBeUndefined();
    });
  });
});

/** For a sign-in redirected to the provider (`started`): its state, and the callback a provider refusing the user sends the browser back to. */
function deniedCallbackOf(started: Response): { state: string; back: URL } {
  const toProvider = new URL(started.headers.get('location')!);
  const state = toProvider.searchParams.get('state')!;
  const back = new URL(toProvider.searchParams.get('redirect_uri')!);
  back.searchParams.set('state', state);
  back.searchParams.set('error', 'access_denied');
  return { state, back };
}

/** A real HTTP server on 127.0.0.1 playing the identity provider: it signs every user in at once (a code back to the callback) and exchanges any code. */
async function startProvider(): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://127.0.0.1');
    if (url.pathname === '/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', 'upstream-code');
      back.searchParams.set('state', url.searchParams.get('state')!);
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'upstream-access', token_type: 'Bearer', expires_in: 3600 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
