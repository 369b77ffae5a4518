import { ToolwrightError } from '@toolwright/core';
import { OAuthStoreFullError, oidcUpstream } from '@toolwright/oauth';
import type { RateLimitStore } from '@toolwright/server/middleware';
import { serveOAuth, type Served } from './fixtures/serveOAuth';

/**
 * A HEAD request to an endpoint of the authorization server is answered as the GET would be:
 * the same status and headers, and no body (RFC 9110 §9.3.2). `/authorize` and the upstream
 * `/callback` are the exceptions: a GET there starts or completes a sign-in, which a HEAD must
 * not do, so it is refused with 405 (no body). Every rate-limited endpoint refuses a method it
 * does not take before the rate limit, so a HEAD never meets the 429, 503 or 500 given around
 * an endpoint, through `oauth.handle` and `oauth.fetch(next)` alike.
 */
type Seen = { status: number; headers: Record<string, string> };
/** Headers of the connection and the message's framing, which differ between a HEAD and a GET answer. */
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

async function ask(url: string, method: string): Promise<Seen & { body: string }> {
  const response = await fetch(url, { method, redirect: 'manual' });
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !FRAMING.has(name)));
  return { status: response.status, headers, body: await response.text() };
}

describe.each(['node', 'fetch'] as const)('HEAD at the authorization server (%s)', (mode) => {
  let served: Served;
  beforeAll(async () => {
    served = await serveOAuth(mode);
  });
  afterAll(() => served.close());

  it.each(['/.well-known/oauth-authorization-server', '/jwks.json', '/token', '/register'])('%s: the GET answer without its body', async (path) => {
    const get = await ask(`${served.base}${path}`, 'GET');
    const head = await ask(`${served.base}${path}`, 'HEAD');
    expect(get.body).not.toBe('');
    expect({ ...head, body: undefined }).toEqual({ ...get, body: undefined });
    expect(head.body).toBe('');
  });

  it('/authorize: 405 with Allow: GET, OPTIONS and no body (a HEAD starts no sign-in)', async () => {
    const head = await ask(`${served.base}/authorize`, 'HEAD');
    expect([head.status, head.headers.allow, head.body]).toEqual([405, 'GET, OPTIONS', '']);
  });
});

describe('oauth.handle with a HEAD request', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveOAuth('fetch');
  });
  afterAll(() => served.close());

  it('answers with no body, whoever serves it', async () => {
    const path = '/.well-known/oauth-authorization-server';
    const get = await served.oauth.handle(new Request(`${served.base}${path}`));
    const head = await served.oauth.handle(new Request(`${served.base}${path}`, { method: 'HEAD' }));
    expect([get?.status, get?.body === null]).toEqual([200, false]);
    expect([head?.status, head?.body]).toEqual([200, null]);
    expect(Object.fromEntries(head!.headers)).toEqual(Object.fromEntries(get!.headers));
  });
});

describe('HEAD at a rate-limited endpoint (rate limit, full store, failure)', () => {
  let served: Served;
  /** A rate-limit store whose answer is chosen by the client address the test names; it records the keys it is asked for. */
  const taken: string[] = [];
  const store: RateLimitStore = {
    get: () => undefined,
    set: () => {},
    take(key) {
      taken.push(key);
      if (key.endsWith(':store-full')) throw new OAuthStoreFullError('the rate-limit store is full', 5);
      if (key.endsWith(':store-broken')) throw new ToolwrightError('the rate-limit store failed');
      return key.endsWith(':limited') ? 0 : 1;
    },
  };
  const clientAddressOf = (request: Request) => request.headers.get('x-test-client') ?? undefined;
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  beforeAll(async () => {
    const upstream = oidcUpstream({ issuer: 'https://idp.example.com', clientId: 'toolwright', clientSecret: 'an-upstream-client-secret' });
    served = await serveOAuth('fetch', { upstream, secret: 'a-test-secret-of-at-least-32-characters', rateLimit: { authorize: { burst: 1, perMinute: 1 }, store, clientAddressOf }, logger: silent });
  });
  afterAll(() => served.close());

  const request = (path: string, method: string, client: string) => new Request(`${served.base}${path}`, { method, headers: { 'x-test-client': client } });

  it.each([
    ['limited', 429],
    ['store-full', 503],
    ['store-broken', 500],
  ])('%s: a GET at /callback is counted and answered %d with a body', async (client, status) => {
    taken.length = 0;
    const get = await served.oauth.handle(request('/callback', 'GET', client));
    expect([get?.status, get?.body === null]).toEqual([status, false]);
    expect(taken).toHaveLength(1);
    await get?.body?.cancel();
  });

  it('a HEAD at /token, /authorize or /callback is refused (405, no body) before the rate limit: the store is not asked', async () => {
    taken.length = 0;
    for (const path of ['/token', '/authorize', '/callback']) {
      for (const client of ['limited', 'store-full', 'store-broken']) {
        const head = await served.oauth.handle(request(path, 'HEAD', client));
        expect([path, head?.status, head?.body]).toEqual([path, 405, null]);
        const fetched = await served.oauth.fetch(() => Promise.resolve(new Response('next', { status: 404 })))(request(path, 'HEAD', client));
        expect([path, fetched.status, fetched.body]).toEqual([path, 405, null]);
      }
    }
    expect(taken).toEqual([]);
  });
});
