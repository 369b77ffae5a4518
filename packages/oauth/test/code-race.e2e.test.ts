import { MemoryOAuthStore } from '@toolwright/oauth';
import { CALLBACK, codeFor, mcpStatus, tokenRequest } from './fixtures/rawFlow';
import { serveOAuth, type Served } from './fixtures/serveOAuth';

/**
 * A code, a refresh token, an assertion's jti and a consent form are each used once because the
 * store's `add` sets a key only when it is absent. `MemoryOAuthStore.add` checks and writes in one
 * step (no await between them), so calls racing for one key are told apart. Over HTTP, of two
 * requests with one code one is the replay, which revokes what the code issued (RFC 6749 §4.1.2).
 */
describe('one authorization code, two token requests at once', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveOAuth('node', { store: new MemoryOAuthStore() });
  });
  afterAll(() => served.close());

  it('the store: of two adds racing for one key, one sets it', async () => {
    const store = new MemoryOAuthStore();
    const added = await Promise.all([store.add('code-used:x', '1', 60), store.add('code-used:x', '2', 60), store.add('code-used:x', '3', 60)]);
    expect(added.filter(Boolean)).toHaveLength(1);
    expect(await store.get('code-used:x')).toBe(String(added.indexOf(true) + 1));
  });

  it('over HTTP: one request is the replay; no tokens issued for the code keep working', async () => {
    const { clientId, code, verifier } = await codeFor(served.base);
    const form = { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK };
    const answers = await Promise.all([tokenRequest(served.base, form), tokenRequest(served.base, form)]);
    const replays = answers.filter((answer) => answer.status === 400 && /already used/.test(String(answer.body.error_description)));
    expect(replays).toHaveLength(1);
    expect(replays[0]!.body.error).toBe('invalid_grant');
    // The other request either got tokens or (as the replay revoked the grant before it loaded it) `the grant of this code was revoked`.
    const issued = answers.filter((answer) => answer.status === 200);
    expect(issued.length).toBeLessThanOrEqual(1);
    // The replay revoked the grant: tokens the other request got are refused.
    for (const tokens of issued) {
      expect(await mcpStatus(served.mcpUrl, String(tokens.body.access_token))).toBe(401);
      expect((await tokenRequest(served.base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: String(tokens.body.refresh_token) })).body.error).toBe('invalid_grant');
    }
    // And a third try is a replay too.
    expect((await tokenRequest(served.base, form)).body.error).toBe('invalid_grant');
  });
});
