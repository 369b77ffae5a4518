import { TestBrowser } from './fixtures/browser';
import { CALLBACK, authorizeUrl, codeFor, pkcePair, registerClient, tokenRequest } from './fixtures/rawFlow';
import { serveOAuth, type Served } from './fixtures/serveOAuth';

/** The authorization server against RFC 6749, 7591 and 7636, line by line, over real HTTP on 127.0.0.1 (node listener). */
describe('the authorization server as the RFCs require', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveOAuth('node');
  });
  afterAll(() => served.close());

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${served.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });

  it('a client that registered a scope and asks for none gets that scope, not every scope here (RFC 7591 §2, RFC 6749 §3.3)', async () => {
    const clientId = String((await registerClient(served.base, { scope: 'notes:read' })).body.client_id);
    const { verifier, challenge } = pkcePair();
    const url = authorizeUrl(served.base, { client_id: clientId, code_challenge: challenge });
    const page = await (await fetch(url)).text();
    expect(page.match(/<li>/g)).toHaveLength(1);
    const code = (await new TestBrowser().authorize(url, CALLBACK)).searchParams.get('code')!;
    const tokens = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK });
    expect(tokens.body.scope).toBe('notes:read');
    expect(JSON.parse(Buffer.from(String(tokens.body.access_token).split('.')[1]!, 'base64url').toString()).scope).toBe('notes:read');

    // Registered none of this server's scopes: asking for none is refused, not granted everything.
    const stranger = String((await registerClient(served.base, { scope: 'calendar:read' })).body.client_id);
    const refused = await fetch(authorizeUrl(served.base, { client_id: stranger, code_challenge: challenge }), { redirect: 'manual' });
    const back = new URL(refused.headers.get('location')!).searchParams;
    expect([back.get('error'), back.get('error_description'), back.get('state')]).toEqual(['invalid_scope', expect.stringMatching(/registered none of this server's scopes/), 'st-1']);
  });

  it('an authorization parameter sent twice: invalid_request back to the verified redirect URI (RFC 6749 §3.1, §4.1.2.1); a repeated client_id or redirect_uri gets a page', async () => {
    const clientId = String((await registerClient(served.base)).body.client_id);
    const { challenge } = pkcePair();
    for (const name of ['response_type', 'code_challenge', 'code_challenge_method', 'scope', 'resource', 'state']) {
      const url = new URL(authorizeUrl(served.base, { client_id: clientId, code_challenge: challenge, scope: 'notes:read', resource: `${served.base}/mcp` }));
      url.searchParams.append(name, url.searchParams.get(name)!);
      const response = await fetch(url, { redirect: 'manual' });
      const back = new URL(response.headers.get('location')!);
      // A repeated state is not echoed: neither copy is the one state.
      expect([
        name,
        `${back.origin}${back.pathname}`,
        back.searchParams.get('error'),
        back.searchParams.get('error_description'),
        back.searchParams.get('state'),
        back.searchParams.get('iss'),
      ]).toEqual([name, CALLBACK, 'invalid_request', `${name} is repeated: send each parameter once`, name === 'state' ? null : 'st-1', served.base]);
    }
    // A state too long to carry back is refused and not echoed either.
    const long = new URL(authorizeUrl(served.base, { client_id: clientId, code_challenge: challenge }));
    long.searchParams.set('state', 's'.repeat(1025));
    const refused = new URL((await fetch(long, { redirect: 'manual' })).headers.get('location')!).searchParams;
    expect([refused.get('error'), refused.get('error_description'), refused.get('state')]).toEqual(['invalid_request', 'state is longer than 1024 characters', null]);
    for (const name of ['client_id', 'redirect_uri']) {
      const url = new URL(authorizeUrl(served.base, { client_id: clientId, code_challenge: challenge }));
      url.searchParams.append(name, url.searchParams.get(name)!);
      const response = await fetch(url, { redirect: 'manual' });
      expect([name, response.status, response.headers.get('location'), await response.text()]).toEqual([name, 400, null, expect.stringContaining(`The parameter ${name} is repeated.`)]);
    }
  });

  it('a code_verifier outside 43 to 128 unreserved characters: invalid_request saying so (RFC 7636 §4.1), and the code is not spent', async () => {
    for (const verifier of ['a'.repeat(42), 'a'.repeat(129), `${'a'.repeat(42)}+`, `${'a'.repeat(42)}é`]) {
      const issued = await codeFor(served.base);
      const form = { grant_type: 'authorization_code', client_id: issued.clientId, code: issued.code, redirect_uri: CALLBACK };
      expect(await tokenRequest(served.base, { ...form, code_verifier: verifier })).toEqual({
        status: 400,
        body: { error: 'invalid_request', error_description: 'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636 section 4.1)' },
      });
      expect((await tokenRequest(served.base, { ...form, code_verifier: issued.verifier })).status).toBe(200);
    }
  });

  it('an Authorization header of Basic with no credentials is a failed client authentication: 401 with WWW-Authenticate (RFC 6749 §5.2)', async () => {
    const clientId = String((await registerClient(served.base)).body.client_id);
    for (const authorization of ['Basic', 'basic ']) {
      const response = await post('/token', `grant_type=refresh_token&refresh_token=x&client_id=${clientId}`, { authorization });
      expect([authorization, response.status, response.headers.get('www-authenticate'), ((await response.json()) as { error: string }).error]).toEqual([
        authorization,
        401,
        'Basic realm="token"',
        'invalid_client',
      ]);
    }
  });

  it('Basic credentials are form-urlencoded before base64 (RFC 6749 §2.3.1): a percent-encoded client id and secret authenticate', async () => {
    const { body } = await registerClient(served.base, { token_endpoint_auth_method: 'client_secret_basic' });
    const encode = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const good = await post('/token', 'grant_type=refresh_token&refresh_token=x', { authorization: `Basic ${btoa(`${encode(String(body.client_id))}:${encode(String(body.client_secret))}`)}` });
    expect([good.status, await good.json()]).toEqual([400, { error: 'invalid_grant', error_description: expect.stringMatching(/refresh token is not valid/) }]);
    const wrong = await post('/token', 'grant_type=refresh_token&refresh_token=x', { authorization: `Basic ${btoa(`${encode(String(body.client_id))}:${encode('wrong')}`)}` });
    expect(wrong.status).toBe(401);
  });

  it('a registered scope that is not space-separated scope tokens: invalid_client_metadata (RFC 7591 §2, RFC 6749 §3.3)', async () => {
    for (const scope of ['notes:read "x', 'notes:read  notes:write', ' notes:read', 'notes:read\tnotes:write', 'a\\b']) {
      const { status, body } = await registerClient(served.base, { scope });
      expect([scope, status, body.error]).toEqual([scope, 400, 'invalid_client_metadata']);
    }
    expect((await registerClient(served.base, { scope: 'notes:read notes:write' })).status).toBe(201);
    // An empty scope declares no limit, as if absent.
    const empty = await registerClient(served.base, { scope: '' });
    expect([empty.status, Object.hasOwn(empty.body, 'scope')]).toEqual([201, false]);
  });

  it('a refresh asking for a scope the grant does not hold: invalid_scope, and the refresh token still works (RFC 6749 §6)', async () => {
    const { body } = await registerClient(served.base, { scope: 'notes:read' });
    const issued = await codeFor(served.base, {}, String(body.client_id));
    const tokens = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: issued.clientId, code: issued.code, code_verifier: issued.verifier, redirect_uri: CALLBACK });
    const wider = await tokenRequest(served.base, { grant_type: 'refresh_token', client_id: issued.clientId, refresh_token: String(tokens.body.refresh_token), scope: 'notes:read notes:write' });
    expect(wider).toEqual({ status: 400, body: { error: 'invalid_scope', error_description: expect.stringMatching(/notes:write was not granted/) } });
    const same = await tokenRequest(served.base, { grant_type: 'refresh_token', client_id: issued.clientId, refresh_token: String(tokens.body.refresh_token) });
    expect([same.status, same.body.scope]).toEqual([200, 'notes:read']);
  });

  it('token responses, answers and errors alike, are never cached (RFC 6749 §5.1, §5.2)', async () => {
    const issued = await codeFor(served.base);
    const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: issued.clientId, code: issued.code, code_verifier: issued.verifier, redirect_uri: CALLBACK });
    for (const expected of [200, 400]) {
      const response = await post('/token', form.toString());
      expect([response.status, response.headers.get('cache-control'), response.headers.get('pragma'), response.headers.get('content-type')]).toEqual([
        expected,
        'no-store',
        'no-cache',
        'application/json',
      ]);
    }
  });
});
