import { randomUUID } from 'node:crypto';
import type { AuthorizationServerMetadata } from '@modelcontextprotocol/client';
import { MemoryOAuthStore } from '@toolwright/oauth';
import { ASSERTION_TYPE, ClientKey, madeUpCodeForm } from './fixtures/clientKey';
import { MemoryClientProvider } from './fixtures/clientProvider';
import { jsonRoute, startDocumentHost } from './fixtures/documentHost';
import { CALLBACK, codeFor, mcpStatus, registerClient, tokenRequest } from './fixtures/rawFlow';
import { serveOAuth, testClock, type Served } from './fixtures/serveOAuth';
import { resultOf, signInClient } from './fixtures/signIn';

/**
 * The body of a token request for a made-up code, the client authenticated with an assertion
 * `key` signs: `invalid_grant` (the code) once the assertion is checked, `invalid_client` when not.
 */
async function madeUpCodeAs(served: Served, clientId: string, key: ClientKey): Promise<Record<string, unknown>> {
  const answer = await tokenRequest(served.base, madeUpCodeForm(key, clientId, served.oauth.issuer));
  return answer.body;
}

/** A memory store that records the keys deleted from it. */
class DeleteRecordingStore extends MemoryOAuthStore {
  readonly deleted: string[] = [];
  override async delete(key: string): Promise<void> {
    this.deleted.push(key);
    return super.delete(key);
  }
}

/** The SDK v2 client as a confidential client: it registers its public key and signs an assertion for each token request. */
class KeyedClientProvider extends MemoryClientProvider {
  assertions = 0;
  constructor(private readonly key: ClientKey) {
    super(CALLBACK, { client_name: 'Keyed client' });
  }
  override get clientMetadata() {
    return { ...super.clientMetadata, token_endpoint_auth_method: 'private_key_jwt', jwks: this.key.jwks } as never;
  }
  addClientAuthentication = (_headers: Headers, params: URLSearchParams, _url: string | URL, metadata?: AuthorizationServerMetadata): void => {
    this.assertions++;
    params.set('client_assertion_type', ASSERTION_TYPE);
    params.set('client_assertion', this.key.assertion(this.info!.client_id, String(metadata!.issuer)));
  };
}

/** private_key_jwt client authentication (RFC 7523) at /token and /revoke. */
describe('private_key_jwt', () => {
  let served: Served;
  const clock = testClock();
  beforeAll(async () => {
    served = await serveOAuth('node', { now: clock.now });
  });
  afterAll(() => served.close());

  async function keyedClient(key = new ClientKey(undefined, clock.now)): Promise<{ key: ClientKey; clientId: string }> {
    const { status, body } = await registerClient(served.base, { token_endpoint_auth_method: 'private_key_jwt', jwks: key.jwks });
    expect(status).toBe(201);
    expect(body).toMatchObject({ token_endpoint_auth_method: 'private_key_jwt', jwks: key.jwks });
    expect(body.client_secret).toBeUndefined();
    return { key, clientId: String(body.client_id) };
  }

  it('the metadata says so', () => {
    expect(served.oauth.metadata).toMatchObject({
      token_endpoint_auth_methods_supported: expect.arrayContaining(['private_key_jwt']),
      token_endpoint_auth_signing_alg_values_supported: expect.arrayContaining(['ES256', 'RS256', 'EdDSA']),
    });
  });

  it('the SDK v2 client registers its key, signs in with an assertion per token request, calls a tool and refreshes', async () => {
    const key = new ClientKey(undefined, clock.now);
    const provider = new KeyedClientProvider(key);
    const client = await signInClient(served.mcpUrl, provider);
    expect(provider.info).toMatchObject({ token_endpoint_auth_method: 'private_key_jwt' });
    expect(resultOf(await client.callTool({ name: 'whoami', arguments: {} }))).toMatchObject({ sub: 'ada', clientId: provider.info!.client_id });
    clock.advance(400); // the access token expires; the SDK refreshes, with a new assertion
    expect(resultOf(await client.callTool({ name: 'whoami', arguments: {} }))).toMatchObject({ sub: 'ada' });
    expect(provider.assertions).toBe(2);
    expect(provider.tokensSaved).toHaveLength(2);
    await client.close();
  });

  it('refuses a replayed assertion (its jti), a wrong key, audience, lifetime or algorithm, and no assertion at all', async () => {
    const { key, clientId } = await keyedClient();
    const { code, verifier } = await codeFor(served.base, {}, clientId);
    const exchange = (form: Record<string, string>) => tokenRequest(served.base, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK, ...form });
    const withAssertion = (assertion: string) => exchange({ client_assertion_type: ASSERTION_TYPE, client_assertion: assertion });
    const refusals: [string, Promise<{ status: number; body: Record<string, unknown> }>, RegExp][] = [
      ['no assertion', exchange({ client_id: clientId }), /authenticates with private_key_jwt, not none/],
      ['another key', withAssertion(new ClientKey(key.kid, clock.now).assertion(clientId, served.oauth.issuer)), /signature that none of the client's keys verifies/],
      ['another audience', withAssertion(key.assertion(clientId, 'https://elsewhere.example')), /must have aud/],
      ['expired', withAssertion(key.assertion(clientId, served.oauth.issuer, { exp: Math.floor(clock.now() / 1000) - 120 })), /has expired/],
      ['a long life', withAssertion(key.assertion(clientId, served.oauth.issuer, { exp: Math.floor(clock.now() / 1000) + 3600 })), /lives longer than 600 s/],
      ['no jti', withAssertion(key.assertion(clientId, served.oauth.issuer, { jti: undefined })), /needs a jti/],
      ['another issuer', withAssertion(key.assertion(clientId, served.oauth.issuer, { iss: 'someone' })), /iss and sub equal to the client_id/],
      ['alg none', withAssertion(key.assertion(clientId, served.oauth.issuer, {}, { alg: 'none' }).replace(/\.[^.]+$/, '.')), /signed with 'none'/],
      ['HS256', withAssertion(key.assertion(clientId, served.oauth.issuer, {}, { alg: 'HS256' })), /signed with 'HS256'/],
      ['an unknown kid', withAssertion(key.assertion(clientId, served.oauth.issuer, {}, { kid: 'other' })), /no registered key for ES256 with kid 'other'/],
      // Not base64url, or of a length base64 cannot have: refused as malformed, never a server error.
      ['a signature of other characters', withAssertion(key.assertion(clientId, served.oauth.issuer).replace(/\.[^.]+$/, '.!!!!')), /not a compact JWS/],
      ['a one-character signature', withAssertion(key.assertion(clientId, served.oauth.issuer).replace(/\.[^.]+$/, '.a')), /not a compact JWS/],
      ['a wrong assertion type', exchange({ client_assertion_type: 'urn:other', client_assertion: key.assertion(clientId, served.oauth.issuer) }), /client_assertion_type/],
    ];
    for (const [name, pending, reason] of refusals) {
      const { status, body } = await pending;
      expect({ name, status, error: body.error, description: body.error_description }).toEqual({ name, status: 401, error: 'invalid_client', description: expect.stringMatching(reason) });
    }
    // None of those spent the code; a good assertion does, once. Its replay is refused before the code is looked at.
    const assertion = key.assertion(clientId, `${served.base}/token`);
    const tokens = await withAssertion(assertion);
    expect(tokens.status).toBe(200);
    expect(await mcpStatus(served.mcpUrl, String(tokens.body.access_token))).not.toBe(401);
    const replay = await tokenRequest(served.base, {
      grant_type: 'refresh_token',
      refresh_token: String(tokens.body.refresh_token),
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: assertion,
    });
    expect(replay).toEqual({ status: 401, body: { error: 'invalid_client', error_description: expect.stringMatching(/was used before/) } });
  });

  it('one assertion sent twice at once works for one request: the other is refused and changes nothing', async () => {
    const { key, clientId } = await keyedClient();
    const { code, verifier } = await codeFor(served.base, {}, clientId);
    const exchange = {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: CALLBACK,
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: key.assertion(clientId, served.oauth.issuer),
    };
    const exchanged = await Promise.all([tokenRequest(served.base, exchange), tokenRequest(served.base, exchange)]);
    expect(exchanged.map((answer) => answer.status).sort()).toEqual([200, 401]);
    const issued = exchanged.find((answer) => answer.status === 200)!.body;
    expect(exchanged.find((answer) => answer.status === 401)!.body).toEqual({ error: 'invalid_client', error_description: expect.stringMatching(/was used before/) });
    // The refused twin did not count as a second use of the code: what the first issued still works.
    expect(await mcpStatus(served.mcpUrl, String(issued.access_token))).not.toBe(401);

    const refresh = { grant_type: 'refresh_token', refresh_token: String(issued.refresh_token), client_assertion_type: ASSERTION_TYPE, client_assertion: key.assertion(clientId, served.oauth.issuer) };
    const refreshed = await Promise.all([tokenRequest(served.base, refresh), tokenRequest(served.base, refresh)]);
    expect(refreshed.map((answer) => answer.status).sort()).toEqual([200, 401]);
    const successor = refreshed.find((answer) => answer.status === 200)!.body;
    expect(await mcpStatus(served.mcpUrl, String(successor.access_token))).not.toBe(401);
    // Sent again later, the spent assertion is refused before the rotated refresh token is taken for a replay: the grant stays.
    expect(await tokenRequest(served.base, refresh)).toEqual({ status: 401, body: { error: 'invalid_client', error_description: expect.stringMatching(/was used before/) } });
    const next = await tokenRequest(served.base, {
      grant_type: 'refresh_token',
      refresh_token: String(successor.refresh_token),
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: key.assertion(clientId, served.oauth.issuer),
    });
    expect(next.status).toBe(200);
  });

  it('revocation takes the assertion too', async () => {
    const { key, clientId } = await keyedClient();
    const { code, verifier } = await codeFor(served.base, {}, clientId);
    const assertion = () => ({ client_assertion_type: ASSERTION_TYPE, client_assertion: key.assertion(clientId, served.oauth.issuer) });
    const tokens = await tokenRequest(served.base, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK, ...assertion() });
    const revoke = await fetch(`${served.base}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: String(tokens.body.refresh_token), ...assertion() }),
    });
    expect(revoke.status).toBe(200);
    expect(await mcpStatus(served.mcpUrl, String(tokens.body.access_token))).toBe(401);
  });

  it('registration refuses a private_key_jwt client without keys, with a private key, or with a plain-http jwks_uri', async () => {
    const key = new ClientKey();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ token_endpoint_auth_method: 'private_key_jwt' }, /exactly one of jwks or jwks_uri/],
      [{ token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [key.privateKey.export({ format: 'jwk' })] } }, /public keys only/],
      [{ token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'http://keys.example/jwks.json' }, /jwks_uri must be an https URL/],
      [{ token_endpoint_auth_method: 'none', jwks: key.jwks }, /only for token_endpoint_auth_method 'private_key_jwt'/],
    ];
    for (const [metadata, reason] of cases) {
      const { status, body } = await registerClient(served.base, metadata);
      expect({ status, error: body.error, description: body.error_description }).toEqual({ status: 400, error: 'invalid_client_metadata', description: expect.stringMatching(reason) });
    }
  });
});

describe('private_key_jwt with a client ID metadata document and its jwks_uri', () => {
  it('fetches the keys through the guarded fetcher, caches them, and fetches again for a new kid', async () => {
    const host = await startDocumentHost();
    const clock = testClock();
    const served = await serveOAuth('node', { now: clock.now, clientDocuments: { fetcher: host.fetcher() } });
    try {
      const clientId = `https://client.example/${randomUUID()}.json`;
      let key = new ClientKey(undefined, clock.now);
      host.routes.set(
        clientId.slice('https://'.length),
        jsonRoute({
          client_id: clientId,
          client_name: 'Keyed document client',
          redirect_uris: [CALLBACK],
          token_endpoint_auth_method: 'private_key_jwt',
          jwks_uri: 'https://client.example/jwks.json',
        }),
      );
      host.routes.set('client.example/jwks.json', (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(key.jwks)));
      const signIn = async () => {
        const { code, verifier } = await codeFor(served.base, {}, clientId);
        return tokenRequest(served.base, {
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: CALLBACK,
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: key.assertion(clientId, served.oauth.issuer),
        });
      };
      expect((await signIn()).status).toBe(200);
      expect((await signIn()).status).toBe(200);
      expect(host.hits.filter((hit) => hit.includes('/jwks.json'))).toHaveLength(1);
      // The client rotates its key: a new kid is fetched (the cached set is not older than a minute yet, so at first it is refused).
      key = new ClientKey(undefined, clock.now);
      const refused = await signIn();
      expect(refused.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(/no registered key/) });
      clock.advance(61);
      expect((await signIn()).status).toBe(200);
      expect(host.hits.filter((hit) => hit.includes('/jwks.json'))).toHaveLength(2);
    } finally {
      await served.close();
      await host.close();
    }
  });
});

/**
 * A client whose `jwks_uri` is down must not make the server fetch it on every request, nor
 * fill the log: a failure is remembered for 30 s (one fetch, one warning), requests that come
 * while a fetch is under way wait for it, and once the keys are back a fetch replaces the failure.
 */
describe('a jwks_uri that could not be fetched', () => {
  let host: Awaited<ReturnType<typeof startDocumentHost>>;
  let served: Served;
  const clock = testClock();
  const warnings: string[] = [];
  const store = new DeleteRecordingStore({ now: clock.now });
  beforeAll(async () => {
    host = await startDocumentHost();
    const logger = { debug() {}, info() {}, warn: (line: string) => void warnings.push(line), error: (line: string) => void warnings.push(line) };
    served = await serveOAuth('node', { now: clock.now, logger, store, clientDocuments: { fetcher: host.fetcher() } });
  });
  afterAll(async () => {
    await served.close();
    await host.close();
  });

  it('is fetched once for concurrent and later requests, logged once, fetched again after 30 s; the unknown-kid rule still holds', async () => {
    const path = `/${randomUUID()}/jwks.json`;
    const jwksUri = `https://client.example${path}`;
    let key = new ClientKey(undefined, clock.now);
    /** Down (503, slowly, so that requests pile up behind the fetch) or serving the current key. */
    let up = false;
    host.routes.set(`client.example${path}`, (_req, res) => {
      if (up) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(key.jwks));
      else setTimeout(() => res.writeHead(503).end(), 200);
    });
    const fetches = () => host.hits.filter((hit) => hit.includes(path)).length;
    const warned = () => warnings.filter((line) => line.includes(jwksUri)).length;
    const { body } = await registerClient(served.base, { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: jwksUri });
    const clientId = String(body.client_id);
    const asClient = () => madeUpCodeAs(served, clientId, key);
    const refused = { error: 'invalid_client', error_description: expect.stringMatching(/jwks_uri could not be fetched/) };

    // Five requests at once while the keys are down: one fetch, one warning.
    expect(await Promise.all(Array.from({ length: 5 }, asClient))).toEqual(Array.from({ length: 5 }, () => refused));
    expect([fetches(), warned()]).toEqual([1, 1]);
    expect(warnings.find((line) => line.includes(jwksUri))).toMatch(/could not be fetched: .* \(it is not fetched again for 30 s\)$/);
    /** How often the failure was deleted from the store: only by a fetch that succeeds after one. */
    const failureDeletes = () => store.deleted.filter((key) => key.startsWith('client-jwks:') && key.endsWith(':failed')).length;
    // Five more within 30 s: the failure is remembered.
    for (let i = 0; i < 5; i++) expect(await asClient()).toEqual(refused);
    clock.advance(29);
    expect(await asClient()).toEqual(refused);
    expect([fetches(), warned()]).toEqual([1, 1]);

    // After 30 s the keys are fetched again: they are back, and they check the assertion.
    up = true;
    clock.advance(2);
    expect(await asClient()).toMatchObject({ error: 'invalid_grant' });
    expect([fetches(), warned(), failureDeletes()]).toEqual([2, 1, 1]);

    // The client rotates its key: a new kid fetches again only once the keys are a minute old.
    key = new ClientKey(undefined, clock.now);
    expect(await asClient()).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(/no registered key/) });
    expect(fetches()).toBe(2);
    clock.advance(61);
    expect(await asClient()).toMatchObject({ error: 'invalid_grant' });
    // A fetch that succeeds with no failure before it costs no store round trip to delete one.
    expect([fetches(), failureDeletes()]).toEqual([3, 1]);

    // Down again while the cached keys are a minute old: a new kid fails once, and the failure is remembered; the cached kid still works.
    up = false;
    clock.advance(61);
    const cached = key;
    key = new ClientKey(undefined, clock.now);
    expect(await asClient()).toEqual(refused);
    expect(await asClient()).toEqual(refused);
    expect([fetches(), warned()]).toEqual([4, 2]);
    key = cached;
    expect(await asClient()).toMatchObject({ error: 'invalid_grant' });
    expect(fetches()).toBe(4);
  });
});

/**
 * Anonymous registrations can fill the clients' share of the store, where a failed `jwks_uri` is
 * remembered: the instance then remembers it in memory, so the URL is still fetched once per
 * 30 s, and the one warning says that other instances may fetch it (the store could not tell them).
 */
describe('a jwks_uri that could not be fetched while the clients share of the store is full', () => {
  let host: Awaited<ReturnType<typeof startDocumentHost>>;
  let served: Served;
  const clock = testClock();
  const warnings: string[] = [];
  beforeAll(async () => {
    host = await startDocumentHost();
    const logger = { debug() {}, info() {}, warn: (line: string) => void warnings.push(line), error: (line: string) => void warnings.push(line) };
    // maxEntries 4: the clients' share is 2 entries.
    const store = new MemoryOAuthStore({ now: clock.now, maxEntries: 4 });
    served = await serveOAuth('node', { now: clock.now, logger, store, clientDocuments: { fetcher: host.fetcher() } });
  });
  afterAll(async () => {
    await served.close();
    await host.close();
  });

  it('is fetched once per 30 s all the same, and the one warning says what holds', async () => {
    const path = `/${randomUUID()}/jwks.json`;
    const jwksUri = `https://client.example${path}`;
    host.routes.set(`client.example${path}`, (_req, res) => void res.writeHead(503).end());
    const key = new ClientKey(undefined, clock.now);
    const { body } = await registerClient(served.base, { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: jwksUri });
    const clientId = String(body.client_id);
    expect((await registerClient(served.base)).status).toBe(201);
    expect((await registerClient(served.base)).status).toBe(503); // the clients' share is full
    const asClient = () => madeUpCodeAs(served, clientId, key);
    const refused = { error: 'invalid_client', error_description: expect.stringMatching(/jwks_uri could not be fetched/) };
    const fetches = () => host.hits.filter((hit) => hit.includes(path)).length;
    const warned = () => warnings.filter((line) => line.includes(jwksUri));

    for (let i = 0; i < 3; i++) expect(await asClient()).toEqual(refused);
    clock.advance(29);
    expect(await asClient()).toEqual(refused);
    expect(fetches()).toBe(1);
    expect(warned()).toEqual([expect.stringMatching(/could not be fetched: .* \(this instance does not fetch it again for 30 s; the store is full, so other instances may\)$/)]);

    clock.advance(2);
    expect(await asClient()).toEqual(refused);
    expect([fetches(), warned().length]).toEqual([2, 2]);
  });
});
