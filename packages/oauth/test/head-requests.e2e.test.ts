import { ToolwrightError } from '@toolwright/core';
import { OAuthStoreFullError, oidcUpstream } from '@toolwright/oauth';
import type { RateLimitStore } from '@toolwright/server/middleware';
import { serveOAuth, type Served } from './fixtures/serveOAuth';

/**
 * A HEAD request to an endpoint of the authorization server is answered as the GET would be:
 * the same status and headers, and no body (RFC 9110 §9.3.2). `/authorize` is the exception: a
 * GET there starts a sign-in, which a HEAD must not do, so it is refused with 405 (no body).
 * The answers given around an endpoint (the rate limit's 429, a full store's 503, a failure's
 * 500) have no body on a HEAD either, through `oauth.handle` and `oauth.fetch(next)` alike; an
 * endpoint that refuses the method (all but the upstream callback) answers 405 before them.
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

  it('/authorize: 405 with Allow: GET and no body (a HEAD starts no sign-in)', async () => {
    const head = await ask(`${served.base}/authorize`, 'HEAD');
    expect([head.status, head.headers.allow, head.body]).toEqual([405, 'GET', '']);
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

describe('HEAD answers given around the endpoint (rate limit, full store, failure)', () => {
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
    // The upstream callback is the rate-limited endpoint that takes any method (a provider may answer with a GET or a form POST).
    const upstream = oidcUpstream({ issuer: 'https://idp.example.com', clientId: 'toolwright', clientSecret: 'an-upstream-client-secret' });
    served = await serveOAuth('fetch', { upstream, secret: 'a-test-secret-of-at-least-32-characters', rateLimit: { authorize: { burst: 1, perMinute: 1 }, store, clientAddressOf }, logger: silent });
  });
  afterAll(() => served.close());

  const callbackRequest = (method: string, client: string) => new Request(`${served.base}/callback`, { method, headers: { 'x-test-client': client } });

  it.each([
    ['limited', 429],
    ['store-full', 503],
    ['store-broken', 500],
  ])('%s: oauth.handle answers a HEAD %d with no body (a GET gets one)', async (client, status) => {
    const get = await served.oauth.handle(callbackRequest('GET', client));
    const head = await served.oauth.handle(callbackRequest('HEAD', client));
    expect([get?.status, get?.body === null]).toEqual([status, false]);
    expect([head?.status, head?.body]).toEqual([status, null]);
    expect(Object.fromEntries(head!.headers)).toEqual(Object.fromEntries(get!.headers));
    await get?.body?.cancel();
  });

  it.each([
    ['limited', 429],
    ['store-full', 503],
    ['store-broken', 500],
  ])('%s: oauth.fetch(next) answers a HEAD %d with no body', async (client, status) => {
    const handler = served.oauth.fetch(() => Promise.resolve(new Response('next', { status: 404 })));
    const head = await handler(callbackRequest('HEAD', client));
    expect([head.status, head.body]).toEqual([status, null]);
  });

  it('a HEAD at /token or /authorize is refused (405) before the rate limit: the store is not asked', async () => {
    taken.length = 0;
    for (const path of ['/token', '/authorize']) {
      for (const client of ['limited', 'store-full', 'store-broken']) {
        const head = await served.oauth.handle(new Request(`${served.base}${path}`, { method: 'HEAD', headers: { 'x-test-client': client } }));
        expect([path, head?.status, head?.body]).toEqual([path, 405, null]);
      }
    }
    expect(taken).toEqual([]);
  });
});
