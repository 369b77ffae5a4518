import { CALLBACK, codeFor, mcpStatus, pkcePair, registerClient, tokenRequest } from './fixtures/rawFlow';
import { serveOAuth, type Served } from './fixtures/serveOAuth';

/**
 * A code presented by a client it was not issued to, or with a check of the request failing
 * (PKCE verifier, then redirect_uri and resource), is refused and not consumed: it stays
 * redeemable by its own client with the right verifier (RFC 6749 §4.1.3, OAuth 2.1 §4.1.3). So
 * whoever steals a code, without its client's credentials and verifier, can neither redeem it
 * nor burn it (make the real redemption fail and the grant be revoked). A second redemption by
 * its own client is still a replay that revokes the grant (RFC 6749 §10.5).
 */
describe('an authorization code presented by the wrong client, or failing a check', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveOAuth('node');
  });
  afterAll(() => served.close());

  const redeem = (form: Record<string, string>) => tokenRequest(served.base, { grant_type: 'authorization_code', redirect_uri: CALLBACK, ...form });

  it("another public client, even with the code's verifier: refused, and the code's own client still redeems it", async () => {
    const victim = await codeFor(served.base);
    const attacker = String((await registerClient(served.base)).body.client_id);
    const stolen = await redeem({ client_id: attacker, code: victim.code, code_verifier: victim.verifier });
    expect(stolen).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringMatching(/issued to another client/) } });

    const own = await redeem({ client_id: victim.clientId, code: victim.code, code_verifier: victim.verifier });
    expect(own.status).toBe(200);
    expect(await mcpStatus(served.mcpUrl, String(own.body.access_token))).not.toBe(401);
  });

  it('another confidential client, authenticated with its own secret: refused, and the code stays redeemable', async () => {
    const registered = async () => {
      const { body } = await registerClient(served.base, { token_endpoint_auth_method: 'client_secret_post' });
      return { id: String(body.client_id), secret: String(body.client_secret) };
    };
    const victim = await registered();
    const attacker = await registered();
    const { code, verifier } = await codeFor(served.base, {}, victim.id);
    const stolen = await redeem({ client_id: attacker.id, client_secret: attacker.secret, code, code_verifier: verifier });
    expect(stolen.body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/issued to another client/) });

    const own = await redeem({ client_id: victim.id, client_secret: victim.secret, code, code_verifier: verifier });
    expect(own.status).toBe(200);
    expect(await mcpStatus(served.mcpUrl, String(own.body.access_token))).not.toBe(401);
  });

  it('its own client with a wrong verifier, redirect_uri or resource: refused, and the code stays redeemable', async () => {
    const { clientId, code, verifier } = await codeFor(served.base);
    const failing: [Record<string, string>, RegExp][] = [
      [{ code_verifier: pkcePair().verifier }, /code_verifier does not match/],
      [{ code_verifier: verifier, redirect_uri: 'http://127.0.0.1:9999/callback' }, /redirect_uri differs/],
      [{ code_verifier: verifier, resource: `${served.base}/elsewhere` }, /is for resource/],
    ];
    for (const [form, description] of failing) {
      const refused = await redeem({ client_id: clientId, code, ...form });
      expect(refused.body).toEqual({ error: expect.stringMatching(/^invalid_(grant|target)$/), error_description: expect.stringMatching(description) });
    }
    const own = await redeem({ client_id: clientId, code, code_verifier: verifier });
    expect(own.status).toBe(200);
    expect(await mcpStatus(served.mcpUrl, String(own.body.access_token))).not.toBe(401);
  });

  it("without the code's verifier, the answer tells nothing of its redirect_uri or resource: the verifier is checked first", async () => {
    const { clientId, code, verifier } = await codeFor(served.base);
    const probes: [Record<string, string>, string, RegExp][] = [
      // A wrong resource: the answer would have named the code's own resource (invalid_target) to anyone holding it.
      [{ code_verifier: pkcePair().verifier, resource: `${served.base}/elsewhere` }, 'invalid_grant', /code_verifier does not match/],
      [{ code_verifier: 'short', resource: `${served.base}/elsewhere` }, 'invalid_request', /code_verifier must be/],
      // A wrong redirect_uri: a different answer for a right and a wrong one would let redirect_uri values be tested.
      [{ code_verifier: pkcePair().verifier, redirect_uri: 'http://127.0.0.1:9999/callback' }, 'invalid_grant', /code_verifier does not match/],
    ];
    for (const [form, error, description] of probes) {
      const refused = await redeem({ client_id: clientId, code, ...form });
      expect(refused).toEqual({ status: 400, body: { error, error_description: expect.stringMatching(description) } });
      expect(refused.body.error_description).not.toContain(served.mcpUrl);
    }
    const own = await redeem({ client_id: clientId, code, code_verifier: verifier });
    expect(own.status).toBe(200);
  });

  it('a second redemption by its own client is a replay: refused, and what the first issued is revoked', async () => {
    const { clientId, code, verifier } = await codeFor(served.base);
    const first = await redeem({ client_id: clientId, code, code_verifier: verifier });
    expect(first.status).toBe(200);
    // Another client's attempt after the redemption changes nothing...
    const attacker = String((await registerClient(served.base)).body.client_id);
    expect((await redeem({ client_id: attacker, code, code_verifier: verifier })).body.error).toBe('invalid_grant');
    expect(await mcpStatus(served.mcpUrl, String(first.body.access_token))).not.toBe(401);
    // ...its own client's second one revokes the grant.
    const replay = await redeem({ client_id: clientId, code, code_verifier: verifier });
    expect(replay.body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/already used.*revoked/) });
    expect(await mcpStatus(served.mcpUrl, String(first.body.access_token))).toBe(401);
  });
});
