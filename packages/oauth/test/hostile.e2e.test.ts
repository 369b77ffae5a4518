import { Agent, request as httpRequest } from 'node:http';
import { TestBrowser, consentForm } from './fixtures/browser';
import { CALLBACK, authorizeUrl, codeFor, mcpStatus, pkcePair, registerClient, tokenRequest } from './fixtures/rawFlow';
import { serveOAuth, testClock, type Served } from './fixtures/serveOAuth';

/** What an attacker tries against the authorization server, over real HTTP on 127.0.0.1 (node listener). */
describe('the authorization server refuses', () => {
  let served: Served;
  const clock = testClock();
  beforeAll(async () => {
    served = await serveOAuth('node', { now: clock.now, extraResources: ['/other-mcp'] });
  });
  afterAll(() => served.close());

  it('a method an endpoint does not take, with 405 and the Allow header RFC 9110 requires', async () => {
    const cases: [string, string, string][] = [
      ['/authorize', 'POST', 'GET, OPTIONS'],
      ['/authorize/consent', 'GET', 'POST, OPTIONS'],
      ['/token', 'GET', 'POST, OPTIONS'],
      ['/register', 'PUT', 'POST, OPTIONS'],
      ['/revoke', 'GET', 'POST, OPTIONS'],
    ];
    for (const [path, method, allow] of cases) {
      const response = await fetch(`${served.base}${path}`, { method });
      expect([path, method, response.status, response.headers.get('allow')]).toEqual([path, method, 405, allow]);
    }
  });

  it('a wrong PKCE verifier, without spending the code (whoever holds a stolen code without its verifier cannot burn it)', async () => {
    const { clientId, code, verifier } = await codeFor(served.base);
    const wrong = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: pkcePair().verifier, redirect_uri: CALLBACK });
    expect(wrong).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringMatching(/code_verifier does not match/) } });
    const right = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK });
    expect(right.status).toBe(200);
  });

  it('a reused authorization code, and revokes the tokens the first use issued', async () => {
    const { clientId, code, verifier } = await codeFor(served.base);
    const form = { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK };
    const first = await tokenRequest(served.base, form);
    expect(first.status).toBe(200);
    expect(await mcpStatus(served.mcpUrl, String(first.body.access_token))).not.toBe(401);
    const replay = await tokenRequest(served.base, form);
    expect(replay).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringMatching(/already used.*revoked/) } });
    expect(await mcpStatus(served.mcpUrl, String(first.body.access_token))).toBe(401);
    const refresh = await tokenRequest(served.base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: String(first.body.refresh_token) });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('a redirect URI that was not registered: an error page, never a redirect; another loopback port is the same URI (RFC 8252)', async () => {
    const { body } = await registerClient(served.base);
    const { challenge } = pkcePair();
    for (const redirect of ['https://evil.example/callback', 'http://127.0.0.1:8976/other', 'http://127.0.0.1:8976/callback?x=1', 'http://localhost.evil.example:8976/callback']) {
      const response = await fetch(authorizeUrl(served.base, { client_id: String(body.client_id), code_challenge: challenge, redirect_uri: redirect }), { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toMatch(/not one this client registered/);
    }
    const otherPort = await new TestBrowser().authorize(
      authorizeUrl(served.base, { client_id: String(body.client_id), code_challenge: challenge, redirect_uri: 'http://127.0.0.1:50123/callback' }),
      'http://127.0.0.1:50123/',
    );
    expect(otherPort.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('a redirect URI that is not the registered string but for a loopback port: no case, normalization or empty-fragment games (RFC 3986 §6.2.1)', async () => {
    const { body } = await registerClient(served.base);
    const { challenge } = pkcePair();
    const lookalikes = [
      `${CALLBACK}#`,
      'http://127.0.0.1:50123/callback#',
      'HTTP://127.0.0.1:8976/callback',
      'http://127.1:8976/callback',
      'http://127.0.0.1:8976/./callback',
      'http://127.0.0.1:8976/call\tback',
      'http://127.0.0.1:99999/callback',
    ];
    for (const redirect of lookalikes) {
      const response = await fetch(authorizeUrl(served.base, { client_id: String(body.client_id), code_challenge: challenge, redirect_uri: redirect }), { redirect: 'manual' });
      expect({ redirect, status: response.status, location: response.headers.get('location') }).toEqual({ redirect, status: 400, location: null });
    }
  });

  it('a token request whose redirect_uri differs from the authorization request', async () => {
    const { clientId, code, verifier } = await codeFor(served.base);
    const response = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: 'http://127.0.0.1:9999/callback' });
    expect(response.body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/redirect_uri differs/) });
  });

  it('authorization requests without PKCE S256, with an unknown scope or resource: back to the client with the error, state and iss', async () => {
    const { body } = await registerClient(served.base);
    const clientId = String(body.client_id);
    const { challenge } = pkcePair();
    const cases: [Record<string, string | undefined>, string][] = [
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ code_challenge: challenge, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ code_challenge: challenge, scope: 'notes:admin' }, 'invalid_scope'],
      [{ code_challenge: challenge, resource: 'https://other.example/mcp' }, 'invalid_target'],
      [{ code_challenge: challenge, response_type: 'token' }, 'unsupported_response_type'],
      [{ code_challenge: challenge, response_type: undefined }, 'invalid_request'],
    ];
    for (const [params, error] of cases) {
      const response = await fetch(authorizeUrl(served.base, { client_id: clientId, ...params }), { redirect: 'manual' });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
      expect(Object.fromEntries(location.searchParams)).toMatchObject({ error, state: 'st-1', iss: served.oauth.issuer });
    }
  });

  it('a token for another resource (RFC 8707 audience) at this MCP endpoint', async () => {
    const other = `${served.base}/other-mcp`;
    const { clientId, code, verifier } = await codeFor(served.base, { resource: other });
    const tokens = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK, resource: other });
    expect(tokens.status).toBe(200);
    expect(JSON.parse(Buffer.from(String(tokens.body.access_token).split('.')[1]!, 'base64url').toString()).aud).toBe(other);
    expect(await mcpStatus(served.mcpUrl, String(tokens.body.access_token))).toBe(401);
  });

  it('a refresh token used after the grace window: the whole grant is revoked; concurrent refreshes within it all succeed with one successor', async () => {
    const { clientId, code, verifier } = await codeFor(served.base);
    const first = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK });
    const refresh = { grant_type: 'refresh_token', client_id: clientId, refresh_token: String(first.body.refresh_token) };
    const racing = await Promise.all(Array.from({ length: 10 }, () => tokenRequest(served.base, refresh)));
    expect(racing.map((r) => r.status)).toEqual(new Array(10).fill(200));
    const successors = new Set(racing.map((r) => r.body.refresh_token));
    expect(successors.size).toBe(1);
    const successor = String([...successors][0]);
    expect(successor).not.toBe(refresh.refresh_token);
    expect(await mcpStatus(served.mcpUrl, String(racing[9]!.body.access_token))).not.toBe(401);

    clock.advance(11); // past the 10 s grace window
    const replay = await tokenRequest(served.base, refresh);
    expect(replay).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringMatching(/already used.*revoked/) } });
    // The family is gone: the successor and every access token of the grant.
    expect((await tokenRequest(served.base, { ...refresh, refresh_token: successor })).body.error).toBe('invalid_grant');
    expect(await mcpStatus(served.mcpUrl, String(racing[9]!.body.access_token))).toBe(401);
  });

  it("another client's refresh token, code, or revocation", async () => {
    const victim = await codeFor(served.base);
    const attacker = String((await registerClient(served.base)).body.client_id);
    const stolen = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: attacker, code: victim.code, code_verifier: victim.verifier, redirect_uri: CALLBACK });
    expect(stolen.body.error).toBe('invalid_grant');

    const own = await codeFor(served.base);
    const tokens = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: own.clientId, code: own.code, code_verifier: own.verifier, redirect_uri: CALLBACK });
    const foreignRefresh = await tokenRequest(served.base, { grant_type: 'refresh_token', client_id: attacker, refresh_token: String(tokens.body.refresh_token) });
    expect(foreignRefresh.body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/another client/) });
    const revoke = await fetch(`${served.base}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: attacker, token: String(tokens.body.access_token) }),
    });
    expect(revoke.status).toBe(200); // RFC 7009: says nothing...
    expect(await mcpStatus(served.mcpUrl, String(tokens.body.access_token))).not.toBe(401); // ...and revoked nothing
  });

  it('registrations with unsafe redirect URIs or unsupported methods (RFC 7591 errors)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ redirect_uris: ['http://127.0.0.1:8976/callback'], application_type: 'web' }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['http://app.example/callback'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.example/callback#frag'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://user:pw@app.example/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [] }, 'invalid_redirect_uri'],
      [{ grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      [{ token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
      [{ application_type: 'desktop' }, 'invalid_client_metadata'],
    ];
    for (const [metadata, error] of cases) {
      const { status, body } = await registerClient(served.base, metadata);
      expect({ metadata, status, error: body.error }).toEqual({ metadata, status: 400, error });
    }
    const native = await registerClient(served.base, { redirect_uris: ['com.example.notes:/callback', 'http://[::1]/cb'] });
    expect(native.body).toMatchObject({ application_type: 'native' });
  });

  it('redirect URIs that are not RFC 3986 absolute URIs as written: invalid_redirect_uri naming the index and the problem', async () => {
    const cases: [string, RegExp][] = [
      ['https://app.example/call back', /^redirect_uris\[1\] 'https:\/\/app.example\/call back' holds a space at index 24: percent-encode it$/],
      ['https://app.example/caf\u00e9', /holds a non-ASCII character \(U\+00E9\)/],
      ['https://\u0430pple.example/cb', /holds a non-ASCII character \(U\+0430\)/],
      ['https://app.example/\u{1F600}', /holds a non-ASCII character \(U\+1F600\)/],
      ['https://evil.example\\@good.example/cb', /holds a backslash/],
      ['https://app.example/cb\tx', /holds a control character \(U\+0009\)/],
      ['https://app.example/cb#', /has a fragment/],
      ['https://app.example/cb#frag', /has a fragment/],
      ['https://user@app.example/cb', /carries user information/],
      ['https://user:pw@app.example/cb', /carries user information/],
      ['https://app.example/%zzcb', /does not start a percent-encoded octet/],
      ['https://app.example/a[1]', /\[ or \] outside an IPv6 host/],
      ['https:app.example/cb', /must name a host/],
      ['https:///cb', /must name a host/],
      ['https://app.example:99999/cb', /not a URL a browser can follow/],
      ['//app.example/cb', /not an absolute URI/],
      ['/cb', /not an absolute URI/],
    ];
    for (const [uri, description] of cases) {
      // The bad URI second: the index names which one.
      const { status, body } = await registerClient(served.base, { redirect_uris: ['https://app.example/ok', uri] });
      expect({ uri, status, error: body.error }).toEqual({ uri, status: 400, error: 'invalid_redirect_uri' });
      expect({ uri, description: body.error_description }).toEqual({ uri, description: expect.stringMatching(description) });
      expect(body.error_description).toMatch(/^redirect_uris\[1\] '/);
    }
    // As the URL fields beside them: client_uri and logo_uri are links on the consent page.
    for (const field of ['client_uri', 'logo_uri']) {
      const { body } = await registerClient(served.base, { [field]: 'https://evil.example\\@good.example/' });
      expect(body).toEqual({ error: 'invalid_client_metadata', error_description: expect.stringMatching(new RegExp(`^${field} holds a backslash`)) });
    }
  });

  it('private-use schemes of real clients (cursor:, vscode:, reverse domain names) register as native; schemes a browser handles itself never do', async () => {
    for (const uri of ['cursor://anysphere.cursor-retrieval/oauth/user-mcp/callback', 'vscode://vscode.mcp/callback', 'com.example.app:/oauth2redirect', 'my-app+dev.2:/cb']) {
      const { status, body } = await registerClient(served.base, { redirect_uris: [uri] });
      expect({ uri, status, body }).toMatchObject({ uri, status: 201, body: { application_type: 'native', redirect_uris: [uri] } });
    }
    const cursor = await registerClient(served.base, { redirect_uris: ['cursor://anysphere.cursor-retrieval/oauth/callback'] });
    const { challenge } = pkcePair();
    const callback = await new TestBrowser().authorize(
      authorizeUrl(served.base, { client_id: String(cursor.body.client_id), code_challenge: challenge, redirect_uri: 'cursor://anysphere.cursor-retrieval/oauth/callback' }),
      'cursor://',
    );
    expect([callback.searchParams.get('code'), callback.searchParams.get('iss')]).toEqual([expect.any(String), served.oauth.issuer]);
    // A web client may not take an app's scheme.
    expect((await registerClient(served.base, { redirect_uris: ['cursor://x/cb'], application_type: 'web' })).body.error_description).toMatch(/application_type 'native'/);
    const dangerous = [
      'javascript:alert(1)',
      'JavaScript://%0aalert(1)',
      'data:text/html,hi',
      'file:///etc/passwd',
      'vbscript:msgbox(1)',
      'blob:https://app.example/1',
      'about:blank',
      'view-source:https://x/',
    ];
    for (const uri of dangerous) {
      for (const applicationType of ['native', 'web']) {
        const { status, body } = await registerClient(served.base, { redirect_uris: [uri], application_type: applicationType });
        expect({ uri, status, body }).toEqual({ uri, status: 400, body: { error: 'invalid_redirect_uri', error_description: expect.stringMatching(/is not an app's/) } });
      }
    }
  });

  it('a consent form without its CSRF cookie, from another origin, or answered twice; Deny goes back as access_denied', async () => {
    const { body } = await registerClient(served.base);
    const { challenge } = pkcePair();
    const open = async () => {
      const browser = new TestBrowser();
      const page = await browser.request(authorizeUrl(served.base, { client_id: String(body.client_id), code_challenge: challenge }));
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      // Not no-referrer: under it browsers post the form with Origin: null, which the Origin check refuses (found in Chromium).
      expect(page.headers.get('referrer-policy')).toBe('same-origin');
      expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      const html = await page.text();
      expect(html).toContain('Raw client');
      return { browser, form: consentForm(html) };
    };
    const noCookie = await open();
    const forged = await fetch(new URL(noCookie.form.action, served.base), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...noCookie.form.fields, decision: 'allow' }),
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    const crossSite = await open();
    const fromElsewhere = await crossSite.browser.request(new URL(crossSite.form.action, served.base).href, {
      method: 'POST',
      form: { ...crossSite.form.fields, decision: 'allow' },
      origin: 'https://evil.example',
    });
    expect(fromElsewhere.status).toBe(403);
    const denied = await open();
    const action = new URL(denied.form.action, served.base).href;
    const answer = await denied.browser.request(action, { method: 'POST', form: { ...denied.form.fields, decision: 'deny' }, origin: served.base });
    expect(answer.status).toBe(302);
    expect(Object.fromEntries(new URL(answer.headers.get('location')!).searchParams)).toMatchObject({ error: 'access_denied', state: 'st-1', iss: served.oauth.issuer });
    const twice = await denied.browser.request(action, { method: 'POST', form: { ...denied.form.fields, decision: 'allow' }, origin: served.base });
    expect(twice.status).toBeGreaterThanOrEqual(400);
  });

  it('two sign-ins in one browser (two tabs): each consent form works on its own, and neither answers the other', async () => {
    const { body } = await registerClient(served.base);
    const browser = new TestBrowser();
    const openTab = async (state: string) => {
      const page = await browser.request(authorizeUrl(served.base, { client_id: String(body.client_id), code_challenge: pkcePair().challenge, state }));
      expect(page.status).toBe(200);
      const form = consentForm(await page.text());
      return { action: new URL(form.action, served.base).href, fields: form.fields };
    };
    const first = await openTab('tab-1');
    const second = await openTab('tab-2');
    const third = await openTab('tab-3');
    // Tab 2's sign-in with tab 1's CSRF token, and the other way: each form is bound to its own sign-in.
    for (const [tab, other] of [
      [second, first],
      [first, second],
    ] as const) {
      const crossed = await browser.request(tab.action, { method: 'POST', form: { ...tab.fields, csrf: other.fields.csrf!, decision: 'allow' }, origin: served.base });
      expect(crossed.status).toBe(403);
    }
    // The first tab, opened before the others, is answered first; then the third denies and the second allows.
    const answers: [typeof first, 'allow' | 'deny', string][] = [
      [first, 'allow', 'tab-1'],
      [third, 'deny', 'tab-3'],
      [second, 'allow', 'tab-2'],
    ];
    for (const [tab, decision, state] of answers) {
      const answer = await browser.request(tab.action, { method: 'POST', form: { ...tab.fields, decision }, origin: served.base });
      expect(answer.status).toBe(302);
      const params = Object.fromEntries(new URL(answer.headers.get('location')!).searchParams);
      expect(params).toMatchObject(decision === 'allow' ? { code: expect.any(String), state } : { error: 'access_denied', state });
    }
  });

  it.each([
    ['', 'invalid_request'],
    ['password', 'unsupported_grant_type'],
    ['client_credentials', 'unsupported_grant_type'],
    ['__proto__', 'unsupported_grant_type'],
    ['constructor', 'unsupported_grant_type'],
    ['toString', 'unsupported_grant_type'],
  ])("grant_type '%s': %s (RFC 6749 §5.2)", async (grantType, error) => {
    const clientId = String((await registerClient(served.base)).body.client_id);
    expect(await tokenRequest(served.base, { grant_type: grantType, client_id: clientId })).toEqual({ status: 400, body: { error, error_description: expect.any(String) } });
  });

  it('a grant type the server has but the client did not register: unauthorized_client', async () => {
    const clientId = String((await registerClient(served.base, { grant_types: ['authorization_code'] })).body.client_id);
    const response = await tokenRequest(served.base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'x' });
    expect(response).toEqual({ status: 400, body: { error: 'unauthorized_client', error_description: expect.stringMatching(/not one this client registered/) } });
  });

  it('a token or revocation request with any parameter sent twice, the client secret too (RFC 6749 §3.1)', async () => {
    const { body } = await registerClient(served.base, { token_endpoint_auth_method: 'client_secret_post' });
    const [clientId, secret] = [String(body.client_id), String(body.client_secret)];
    const post = async (path: string, form: string) => {
      const response = await fetch(`${served.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
      return [response.status, await response.json()];
    };
    // The right secret first or second: refused either way, never decided by one of the two.
    for (const secrets of [`client_secret=wrong&client_secret=${secret}`, `client_secret=${secret}&client_secret=wrong`]) {
      expect(await post('/token', `grant_type=refresh_token&refresh_token=x&client_id=${clientId}&${secrets}`)).toEqual([
        400,
        { error: 'invalid_request', error_description: 'client_secret is repeated' },
      ]);
    }
    expect(await post('/token', `grant_type=refresh_token&refresh_token=x&client_id=${clientId}&client_secret=${secret}&extra=1&extra=2`)).toEqual([
      400,
      { error: 'invalid_request', error_description: 'extra is repeated' },
    ]);
    expect(await post('/revoke', `client_id=${clientId}&client_secret=${secret}&token=a&token=b`)).toEqual([400, { error: 'invalid_request', error_description: 'token is repeated' }]);
  });

  it('a token request that authenticates the client more than one way (RFC 6749 §2.3)', async () => {
    const { body } = await registerClient(served.base, { token_endpoint_auth_method: 'client_secret_basic' });
    const authorization = `Basic ${btoa(`${String(body.client_id)}:${String(body.client_secret)}`)}`;
    const second: Record<string, string>[] = [{ client_secret: 'anything' }, { client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: 'a.b.c' }];
    for (const extra of second) {
      const response = await fetch(`${served.base}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', ...extra }),
      });
      expect([response.status, await response.json()]).toEqual([400, { error: 'invalid_request', error_description: expect.stringMatching(/more than one way/) }]);
    }
  });

  it('a revocation by an unknown client: 401 with WWW-Authenticate, as at the token endpoint (RFC 6749 §5.2)', async () => {
    const response = await fetch(`${served.base}/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'client_id=nobody&token=x' });
    expect([response.status, response.headers.get('www-authenticate'), ((await response.json()) as { error: string }).error]).toEqual([401, expect.stringMatching(/^Basic/), 'invalid_client']);
  });

  it('a refresh for another resource: invalid_target (RFC 8707 §2.2)', async () => {
    const { clientId, code, verifier } = await codeFor(served.base);
    const tokens = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK });
    const other = await tokenRequest(served.base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: String(tokens.body.refresh_token), resource: `${served.base}/other-mcp` });
    expect(other).toEqual({ status: 400, body: { error: 'invalid_target', error_description: expect.stringMatching(/is for resource/) } });
  });

  it('echoed input never puts characters RFC 6749 forbids into error_description (no quote, backslash, control or non-ASCII)', async () => {
    const allowed = /^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/;
    const clientId = String((await registerClient(served.base)).body.client_id);
    const { challenge } = pkcePair();
    const page = await fetch(authorizeUrl(served.base, { client_id: clientId, code_challenge: challenge, scope: 'a"b\\c\u2019d\u0007\u00e9' }), { redirect: 'manual' });
    const redirected = new URL(page.headers.get('location')!).searchParams;
    expect([redirected.get('error'), redirected.get('error_description')]).toEqual(['invalid_scope', expect.stringMatching(allowed)]);
    const grant = await tokenRequest(served.base, { grant_type: 'x"\\\u00fc', client_id: clientId });
    expect(grant.body).toEqual({ error: 'unsupported_grant_type', error_description: expect.stringMatching(allowed) });
    const metadata = await registerClient(served.base, { grant_types: ['implicit'] }); // its description names the allowed values in quotes
    expect(metadata.body).toEqual({ error: 'invalid_client_metadata', error_description: expect.stringMatching(allowed) });
  });

  it('a scope named twice: granted, shown and issued once (RFC 6749 §3.3), at the authorization request and at a refresh', async () => {
    const { body } = await registerClient(served.base);
    const { verifier, challenge } = pkcePair();
    const url = authorizeUrl(served.base, { client_id: String(body.client_id), code_challenge: challenge, scope: 'notes:read notes:write notes:read' });
    expect((await (await fetch(url)).text()).match(/<li>/g)).toHaveLength(2);
    const code = (await new TestBrowser().authorize(url, CALLBACK)).searchParams.get('code')!;
    const tokens = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: String(body.client_id), code, code_verifier: verifier, redirect_uri: CALLBACK });
    expect(tokens.body.scope).toBe('notes:read notes:write');
    expect(JSON.parse(Buffer.from(String(tokens.body.access_token).split('.')[1]!, 'base64url').toString()).scope).toBe('notes:read notes:write');
    const narrowed = await tokenRequest(served.base, {
      grant_type: 'refresh_token',
      client_id: String(body.client_id),
      refresh_token: String(tokens.body.refresh_token),
      scope: 'notes:read  notes:read',
    });
    expect(narrowed.body.scope).toBe('notes:read');
  });

  it('a consent page that names another destination than the browser is sent to: it shows the URLs as the browser parses them', async () => {
    // Valid RFC 3986 (a percent-encoded host, a dot segment), which the WHATWG parser rewrites: the page shows where the browser goes.
    const encodedHost = 'https://%65vil.example/cb';
    const dotSegment = 'https://good.example/a/../cb';
    const { body } = await registerClient(served.base, { redirect_uris: [encodedHost, dotSegment], client_uri: 'https://%65vil.example/' });
    const { challenge } = pkcePair();
    for (const [redirect, destination] of [
      [encodedHost, 'https://evil.example/cb'],
      [dotSegment, 'https://good.example/cb'],
    ] as const) {
      const url = authorizeUrl(served.base, { client_id: String(body.client_id), code_challenge: challenge, redirect_uri: redirect });
      const html = await (await fetch(url)).text();
      expect(html).toContain(`sent back to <code>${destination}</code>`);
      expect(html).toContain('<a href="https://evil.example/" rel="noopener noreferrer">https://evil.example/</a>');
      const callback = await new TestBrowser().authorize(url, 'https://');
      expect(`${callback.origin}${callback.pathname}`).toBe(destination);
    }
  });

  it("a body past the node listener's limit on a kept-alive connection: the endpoint's own error, and the connection serves on", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (path: string, type: string, body: string) =>
      new Promise<[number, string]>((resolve, reject) => {
        const req = httpRequest(`${served.base}${path}`, { method: 'POST', agent, headers: { 'content-type': type } }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve([res.statusCode!, text]));
        });
        req.on('error', reject).end(body);
      });
    try {
      const huge = 'x'.repeat(2_000_000);
      for (let round = 0; round < 3; round++) {
        expect(await post('/token', 'application/x-www-form-urlencoded', 'grant_type=refresh_token')).toEqual([401, expect.stringMatching(/"error":"invalid_client"/)]);
        expect(await post('/register', 'application/json', `{"client_name":"${huge}"}`)).toEqual([413, expect.stringMatching(/larger than 16384 bytes/)]);
        expect(await post('/token', 'application/x-www-form-urlencoded', `grant_type=refresh_token&x=${huge}`)).toEqual([400, expect.stringMatching(/at most 16 KiB/)]);
      }
    } finally {
      agent.destroy();
    }
  });

  it.each(['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'])('%s as a scope, resource, response type, PKCE method, client metadata, sign-in id or token', async (name) => {
    const clientId = String((await registerClient(served.base)).body.client_id);
    const { challenge } = pkcePair();
    const refusals: [Record<string, string>, string][] = [
      [{ scope: name }, 'invalid_scope'],
      [{ resource: name }, 'invalid_target'],
      [{ response_type: name }, 'unsupported_response_type'],
      [{ code_challenge_method: name }, 'invalid_request'],
    ];
    for (const [params, error] of refusals) {
      const response = await fetch(authorizeUrl(served.base, { client_id: clientId, code_challenge: challenge, ...params }), { redirect: 'manual' });
      expect({ params, error: new URL(response.headers.get('location')!).searchParams.get('error') }).toEqual({ params, error });
    }
    for (const metadata of [{ application_type: name }, { grant_types: [name] }, { token_endpoint_auth_method: name }, { response_types: [name] }, { redirect_uris: { [name]: CALLBACK } }]) {
      const { status, body } = await registerClient(served.base, metadata);
      expect({ metadata, status, error: body.error }).toEqual({ metadata, status: 400, error: expect.stringMatching(/^invalid_(client_metadata|redirect_uri)$/) });
    }
    // Metadata only under a member named after Object.prototype is not metadata.
    const nested = await fetch(`${served.base}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"${name}":{"redirect_uris":["${CALLBACK}"]}}` });
    expect([nested.status, ((await nested.json()) as { error: string }).error]).toEqual([400, 'invalid_redirect_uri']);
    const consent = await fetch(`${served.base}/authorize/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `tw_oauth_consent_${name}=x` },
      body: new URLSearchParams({ sign_in: name, csrf: 'x', decision: 'allow' }),
    });
    expect([consent.status, await consent.text()]).toEqual([400, expect.stringContaining('unknown or has expired')]);
    const refresh = await tokenRequest(served.base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: name });
    expect(refresh).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.any(String) } });
    const revoked = await fetch(`${served.base}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, token: name, token_type_hint: name }),
    });
    expect(revoked.status).toBe(200);
  });

  it.each(['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'])('%s as a client_id or a path', async (name) => {
    const { challenge } = pkcePair();
    const page = await fetch(authorizeUrl(served.base, { client_id: name, code_challenge: challenge }), { redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: name, code: 'x', code_verifier: 'y', redirect_uri: CALLBACK })).toMatchObject({ status: 401 });
    expect((await fetch(`${served.base}/${name}`)).status).toBe(404);
  });
});
