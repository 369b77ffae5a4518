import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UpstreamProvider } from '@toolwright/oauth';
import { CALLBACK, authorizeUrl, pkcePair, registerClient } from './fixtures/rawFlow';
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
  let provider: { server: Server; base: string; tokenAnswer: { status: number; body: unknown } };
  let served: Served;
  let clientId: string;
  beforeAll(async () => {
    provider = await startProvider();
    const upstream: UpstreamProvider = {
      name: 'corp',
      authorizationEndpoint: `${provider.base}/authorize`,
      tokenEndpoint: `${provider.base}/token`,
      clientId: 'toolwright',
      clientSecret: 'upstream-client-secret-for-tests-only',
      scopes: ['profile'],
      map: () => ({ subject: 'ada' }),
    };
    served = await serveOAuth('node', { upstream, secret: 'a-test-secret-of-at-least-32-characters' });
    clientId = String((await registerClient(served.base)).body.client_id);
  });
  afterAll(async () => {
    await served.close();
    await new Promise<void>((resolve) => provider.server.close(() => resolve()));
  });

  /** Starts a sign-in; the callback URL the provider would send the browser back to, with its state. */
  async function startSignIn(): Promise<URL> {
    const started = await fetch(authorizeUrl(served.base, { client_id: clientId, code_challenge: pkcePair().challenge }), { redirect: 'manual' });
    expect(started.status).toBe(302);
    const toProvider = new URL(started.headers.get('location')!);
    const back = new URL(toProvider.searchParams.get('redirect_uri')!);
    back.searchParams.set('state', toProvider.searchParams.get('state')!);
    return back;
  }

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
    const callback = await startSignIn();
    for (const [name, value] of Object.entries(params)) callback.searchParams.set(name, value);
    expect(await toldClient(callback)).toEqual({ error: 'access_denied', description });
  });

  it.each([
    ['a known code', { error: 'invalid_grant', error_description: PHISHING }, 'the identity provider refused the code (invalid_grant)'],
    ['free text', { error: PHISHING }, 'the identity provider refused the code (HTTP 400)'],
  ])('the provider’s token endpoint refused the code with %s: its status or known code only', async (_name, body, description) => {
    provider.tokenAnswer = { status: 400, body };
    const callback = await startSignIn();
    callback.searchParams.set('code', 'upstream-code');
    expect(await toldClient(callback)).toEqual({ error: 'access_denied', description });
  });
});

/** A real HTTP server on 127.0.0.1 playing the identity provider's token endpoint: it answers `tokenAnswer`. */
async function startProvider(): Promise<{ server: Server; base: string; tokenAnswer: { status: number; body: unknown } }> {
  const state = { tokenAnswer: { status: 400, body: {} as unknown } };
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(state.tokenAnswer.status, { 'content-type': 'application/json' }).end(JSON.stringify(state.tokenAnswer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}
