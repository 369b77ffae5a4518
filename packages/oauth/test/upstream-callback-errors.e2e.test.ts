import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolwrightError } from '@toolwright/core';
import type { UpstreamProvider } from '@toolwright/oauth';
import { TestBrowser } from './fixtures/browser';
import { corpUpstream } from './fixtures/corpUpstream';
import { CALLBACK, authorizeUrl, pkcePair, registerClient, tokenRequest } from './fixtures/rawFlow';
import { serveOAuth, type Served } from './fixtures/serveOAuth';

/** Words someone crafting the callback would like the user to read in the MCP client. */
const PHISHING = 'Your account is locked. Call +1 555 0100 to unlock it';

/**
 * The upstream provider's error reaches the MCP client only as a code OAuth or OpenID Connect
 * defines (`access_denied`, `login_required`, ...): the callback's query comes through the
 * user's browser and anyone can craft it, so neither free text in `error` nor the provider's
 * `error_description` is passed on in the `access_denied` sent to the client's redirect URI.
 * The same holds for the error the provider's token endpoint answers for the code.
 */
describe('upstream errors, as the MCP client is told of them', () => {
  const signIn = serveSignIns(() => ({ map: () => ({ subject: 'ada' }) }));

  /** Follows the callback: the error and description the MCP client's redirect URI receives. */
  async function toldClient(callback: URL): Promise<{ error: string | null; description: string | null }> {
    const answer = await fetch(callback, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location')!);
    expect(location.href.startsWith(CALLBACK)).toBe(true);
    return { error: location.searchParams.get('error'), description: location.searchParams.get('error_description') };
  }

  it.each([
    ['a known code, with a crafted error_description', { error: 'access_denied', error_description: PHISHING }, 'the identity provider answered access_denied'],
    ['an OpenID Connect code', { error: 'login_required' }, 'the identity provider answered login_required'],
    ['free text as the error', { error: PHISHING }, 'the identity provider answered with an error'],
    ['a known code with more after it', { error: `access_denied ${PHISHING}` }, 'the identity provider answered with an error'],
    ['a long error', { error: 'x'.repeat(5000) }, 'the identity provider answered with an error'],
    ['an error with characters outside RFC 6749', { error: 'access_denied"\\<b>' }, 'the identity provider answered with an error'],
    ['an empty error', { error: '' }, 'the identity provider answered with an error'],
  ])('the callback answered with %s: access_denied naming the code only', async (_name, params, description) => {
    const callback = await signIn.start();
    for (const [name, value] of Object.entries(params)) callback.searchParams.set(name, value);
    expect(await toldClient(callback)).toEqual({ error: 'access_denied', description });
  });

  it.each([
    ['a known code', { error: 'invalid_grant', error_description: PHISHING }, 'the identity provider refused the code (invalid_grant)'],
    ['free text', { error: PHISHING }, 'the identity provider refused the code (HTTP 400)'],
  ])('the provider’s token endpoint refused the code with %s: its status or known code only', async (_name, body, description) => {
    signIn.provider.tokenAnswer = { status: 400, body };
    const callback = await signIn.start();
    callback.searchParams.set('code', 'upstream-code');
    expect(await toldClient(callback)).toEqual({ error: 'access_denied', description });
  });

  it.each([
    ['null', null],
    ['an array', [{ access_token: 'upstream-access-token' }]],
    ['a number', 42],
    ['a string', 'upstream-access-token'],
    ['no JSON at all', undefined],
    ['an object without access_token', { token_type: 'Bearer' }],
    ['an error that is no OAuth code', { error: 'bad_verification_code' }],
  ])('the provider’s token endpoint answered 200 with %s: a failed exchange, said as what it is (no 500)', async (_name, body) => {
    signIn.provider.tokenAnswer = { status: 200, body };
    const callback = await signIn.start();
    callback.searchParams.set('code', 'upstream-code');
    expect(await toldClient(callback)).toEqual({ error: 'access_denied', description: 'the identity provider answered no access token (HTTP 200)' });
  });

  it('the provider’s token endpoint answered 200 with an OAuth error code: a refusal naming the code', async () => {
    signIn.provider.tokenAnswer = { status: 200, body: { error: 'invalid_grant', error_description: PHISHING } };
    const callback = await signIn.start();
    callback.searchParams.set('code', 'upstream-code');
    expect(await toldClient(callback)).toEqual({ error: 'access_denied', description: 'the identity provider refused the code (invalid_grant)' });
  });

  it('a HEAD or a POST at the callback is refused (405, Allow: GET, OPTIONS) and spends nothing: the GET after it completes the sign-in', async () => {
    signIn.provider.tokenAnswer = { status: 200, body: { access_token: 'upstream-access-token', token_type: 'Bearer' } };
    const callback = await signIn.start();
    callback.searchParams.set('code', 'upstream-code');
    const before = signIn.provider.tokenRequests;
    const head = await fetch(callback, { method: 'HEAD', redirect: 'manual' });
    expect([head.status, head.headers.get('allow'), await head.text()]).toEqual([405, 'GET, OPTIONS', '']);
    // As a provider answering with response_mode=form_post would send it.
    const form = new URLSearchParams([...callback.searchParams]);
    const post = await fetch(new URL(callback.pathname, callback), { method: 'POST', body: form, redirect: 'manual' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, OPTIONS']);
    await post.body?.cancel();
    expect(signIn.provider.tokenRequests).toBe(before);
    // The sign-in is still pending: the browser's GET exchanges the code, and the consent page leads to the client's code.
    const landed = await new TestBrowser().authorize(callback.href, CALLBACK);
    expect(landed.searchParams.get('code')).toEqual(expect.any(String));
    expect(signIn.provider.tokenRequests).toBe(before + 1);
  });

  it('a refresh the provider answers 200 with null fails with a ToolwrightError naming the provider and saying what it answered (no TypeError)', async () => {
    signIn.provider.tokenAnswer = { status: 200, body: { access_token: 'upstream-access-token', token_type: 'Bearer', refresh_token: 'upstream-refresh-token', expires_in: 3600 } };
    const { verifier, challenge } = pkcePair();
    const back = await signIn.start(challenge);
    back.searchParams.set('code', 'upstream-code');
    const landed = await new TestBrowser().authorize(back.href, CALLBACK);
    const issued = await tokenRequest(signIn.served.base, {
      grant_type: 'authorization_code',
      code: landed.searchParams.get('code')!,
      code_verifier: verifier,
      redirect_uri: CALLBACK,
      client_id: signIn.clientId,
    });
    expect(issued.status).toBe(200);
    const claims = JSON.parse(Buffer.from(String(issued.body.access_token).split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect((await signIn.served.oauth.upstreamTokens({ extra: { claims } }))?.access_token).toBe('upstream-access-token');

    signIn.provider.tokenAnswer = { status: 200, body: null };
    // Valid for an hour, asked to be for two: refreshed now.
    const refreshing = signIn.served.oauth.upstreamTokens({ extra: { claims } }, { minValiditySeconds: 7200 });
    await expect(refreshing).rejects.toThrow(ToolwrightError);
    await expect(refreshing).rejects.toThrow('refreshing the upstream tokens at corp failed: the identity provider answered no access token (HTTP 200); try again later.');
    signIn.provider.tokenAnswer = { status: 503, body: { error: PHISHING } };
    await expect(signIn.served.oauth.upstreamTokens({ extra: { claims } }, { minValiditySeconds: 7200 })).rejects.toThrow(
      'refreshing the upstream tokens at corp failed: the identity provider answered HTTP 503; try again later.',
    );
  });
});

/** A userinfo answer that is not a JSON object tells nothing of the user: the sign-in goes on with what else is known, as when userinfo fails. */
describe('an upstream userinfo answer that is no object', () => {
  const signIn = serveSignIns((base) => ({ userinfoEndpoint: `${base}/userinfo` }));
  beforeAll(() => {
    signIn.provider.tokenAnswer = { status: 200, body: { access_token: 'upstream-access-token', token_type: 'Bearer' } };
  });

  async function callbackAnswer(): Promise<Response> {
    const back = await signIn.start();
    back.searchParams.set('code', 'upstream-code');
    return fetch(back, { redirect: 'manual' });
  }

  it('userinfo naming the user: the consent page', async () => {
    signIn.provider.userinfoAnswer = { status: 200, body: { sub: 'ada' } };
    const answer = await callbackAnswer();
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('Allow');
  });

  it.each([
    ['null', null],
    ['an array', [{ sub: 'ada' }]],
    ['no JSON at all', undefined],
  ])('userinfo answering 200 with %s: no user named, so access_denied (no 500)', async (_name, body) => {
    signIn.provider.userinfoAnswer = { status: 200, body };
    const answer = await callbackAnswer();
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location')!);
    expect([location.searchParams.get('error'), location.searchParams.get('error_description')]).toEqual(['access_denied', 'the identity provider named no sub']);
  });
});

/**
 * The test provider, and the authorization server signing in through it as `corp` (`more`
 * adds to the upstream, given the provider's base URL), with a client registered, for the
 * describe block it is called in. The fields are set once `beforeAll` has run.
 */
function serveSignIns(more: (providerBase: string) => Partial<UpstreamProvider>): SignIns {
  const signIn = {
    /** Starts a sign-in; the callback URL the provider would send the browser back to, with its state. */
    async start(challenge = pkcePair().challenge): Promise<URL> {
      const started = await fetch(authorizeUrl(signIn.served.base, { client_id: signIn.clientId, code_challenge: challenge }), { redirect: 'manual' });
      expect(started.status).toBe(302);
      const toProvider = new URL(started.headers.get('location')!);
      const back = new URL(toProvider.searchParams.get('redirect_uri')!);
      back.searchParams.set('state', toProvider.searchParams.get('state')!);
      return back;
    },
  } as SignIns;
  beforeAll(async () => {
    signIn.provider = await startProvider();
    const upstream = corpUpstream(signIn.provider.base, more(signIn.provider.base));
    signIn.served = await serveOAuth('node', { upstream, secret: 'a-test-secret-of-at-least-32-characters' });
    signIn.clientId = String((await registerClient(signIn.served.base)).body.client_id);
  });
  afterAll(async () => {
    await signIn.served.close();
    await new Promise<void>((resolve) => signIn.provider.server.close(() => resolve()));
  });
  return signIn;
}

type SignIns = { provider: Provider; served: Served; clientId: string; start(challenge?: string): Promise<URL> };
type Answer = { status: number; body: unknown };
type Provider = { server: Server; base: string; tokenAnswer: Answer; userinfoAnswer: Answer; tokenRequests: number };

/**
 * A real HTTP server on 127.0.0.1 playing the identity provider: its token endpoint answers
 * `tokenAnswer` (and counts the requests), `/userinfo` answers `userinfoAnswer`; a body as JSON,
 * `undefined` as a body that is not JSON.
 */
async function startProvider(): Promise<Provider> {
  const state = { tokenAnswer: { status: 400, body: {} as unknown }, userinfoAnswer: { status: 404, body: {} as unknown }, tokenRequests: 0 };
  const server = createServer((req, res) => {
    req.resume();
    const userinfo = req.url === '/userinfo';
    if (!userinfo) state.tokenRequests++;
    const { status, body } = userinfo ? state.userinfoAnswer : state.tokenAnswer;
    res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? 'not json' : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}
