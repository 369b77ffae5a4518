import { createOAuthServer } from '@toolwright/oauth';
import { authorizeUrl, CALLBACK, pkcePair, registerClient } from './fixtures/rawFlow';
import { serveOAuth, testClock, type Served } from './fixtures/serveOAuth';

/** As a reverse proxy would tell the client's address: the test names it in a header the server is told to trust. */
const clientAddressOf = (request: Request) => request.headers.get('x-test-client') ?? undefined;

function from(address: string, init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string>), 'x-test-client': address } };
}

const register = (base: string, address: string) =>
  fetch(
    `${base}/register`,
    from(address, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }) }),
  );
const token = (base: string, address: string) =>
  fetch(`${base}/token`, from(address, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=refresh_token&client_id=x&refresh_token=y' }));

/** Rate limits per client address at /register, /token and /authorize: 429 with Retry-After, per address, refilled over time. */
describe('rate limits', () => {
  let served: Served;
  const clock = testClock();
  beforeAll(async () => {
    served = await serveOAuth('fetch', {
      now: clock.now,
      rateLimit: { register: { burst: 2, perMinute: 1 }, token: { burst: 3, perMinute: 6 }, authorize: { burst: 2, perMinute: 2 }, clientAddressOf },
    });
  });
  afterAll(() => served.close());

  it('/register: past the burst, 429 with Retry-After and an OAuth error; another address is not affected; the bucket refills', async () => {
    expect((await register(served.base, '203.0.113.7')).status).toBe(201);
    expect((await register(served.base, '203.0.113.7')).status).toBe(201);
    const refused = await register(served.base, '203.0.113.7');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(60);
    expect(await refused.json()).toEqual({ error: 'too_many_requests', error_description: expect.stringMatching(/Too many requests to \/register.*retry in 60 s/) });
    expect((await register(served.base, '198.51.100.9')).status).toBe(201);
    clock.advance(60);
    expect((await register(served.base, '203.0.113.7')).status).toBe(201);
    expect((await register(served.base, '203.0.113.7')).status).toBe(429);
  });

  it('/token and /revoke share one bucket', async () => {
    for (let i = 0; i < 2; i++) expect((await token(served.base, '203.0.113.20')).status).not.toBe(429);
    const revoke = await fetch(`${served.base}/revoke`, from('203.0.113.20', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=x&client_id=y' }));
    expect(revoke.status).not.toBe(429);
    const refused = await token(served.base, '203.0.113.20');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('10');
  });

  it('/authorize: a page with 429 and Retry-After, never a redirect', async () => {
    const { body } = await registerClient(served.base, {});
    const url = authorizeUrl(served.base, { client_id: String(body.client_id), code_challenge: pkcePair().challenge });
    for (let i = 0; i < 2; i++) expect((await fetch(url, from('203.0.113.30', { redirect: 'manual' }))).status).toBe(200);
    const refused = await fetch(url, from('203.0.113.30', { redirect: 'manual' }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.headers.get('location')).toBeNull();
    expect(refused.headers.get('content-type')).toMatch(/text\/html/);
    expect(await refused.text()).toMatch(/Too many requests/);
  });

  it('the metadata and keys are never limited', async () => {
    for (let i = 0; i < 5; i++) expect((await fetch(`${served.base}/.well-known/oauth-authorization-server`, from('203.0.113.40'))).status).toBe(200);
  });
});

describe('rate limits on the node listener', () => {
  it('count the connection address; loopback clients are not limited', async () => {
    const served = await serveOAuth('node', { rateLimit: { register: { burst: 1, perMinute: 1 } } });
    try {
      for (let i = 0; i < 3; i++) expect((await registerClient(served.base)).status).toBe(201);
    } finally {
      await served.close();
    }
  });

  it('a bad rate is refused at start', async () => {
    const options = { issuer: 'http://127.0.0.1:1', resource: 'http://127.0.0.1:1/mcp', signIn: () => ({ subject: 'ada' }) };
    await expect(createOAuthServer({ ...options, rateLimit: { token: { burst: 0, perMinute: 1 } } })).rejects.toThrow(
      /rateLimit\.token needs burst >= 1 and perMinute > 0, got \{"burst":0,"perMinute":1\}\. Give both as numbers, e\.g\. rateLimit: \{ token: \{ burst: 60, perMinute: 120 \} \} \(the default\), or token: false to turn this limit off\./,
    );
  });
});

/**
 * A request with a method the endpoint refuses (a HEAD, a GET at /token) is answered 405 before
 * the rate limit counts it: it spends nothing of its address's bucket, so a link checker or a
 * stray probe does not use up the requests the real client then needs.
 */
describe('rate limits and refused methods', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveOAuth('fetch', { rateLimit: { register: { burst: 1, perMinute: 1 }, token: { burst: 1, perMinute: 1 }, authorize: { burst: 1, perMinute: 1 }, clientAddressOf } });
  });
  afterAll(() => served.close());

  it.each([
    ['/token', ['HEAD', 'GET', 'PUT', 'DELETE'], 'POST'],
    ['/revoke', ['HEAD', 'GET', 'PATCH'], 'POST'],
    ['/register', ['HEAD', 'GET', 'PUT'], 'POST'],
    ['/authorize', ['HEAD', 'POST', 'PUT'], 'GET'],
    ['/authorize/consent', ['HEAD', 'GET', 'PUT'], 'POST'],
  ])('%s: %j are answered 405 (with Allow) each time, and the bucket still has its one request', async (path, methods, allowed) => {
    // An address of its own per endpoint (/token and /revoke share a bucket).
    const address = `203.0.113.${100 + ['/token', '/revoke', '/register', '/authorize', '/authorize/consent'].indexOf(path)}`;
    for (const method of [...methods, ...methods]) {
      const answer = await fetch(`${served.base}${path}`, from(address, { method, redirect: 'manual' }));
      expect({ method, status: answer.status, allow: answer.headers.get('allow') }).toEqual({ method, status: 405, allow: `${allowed}, OPTIONS` });
      await answer.body?.cancel();
    }
    // The one request the burst allows is still there: it reaches the endpoint (refused there for what it lacks, not 429).
    const first = await fetch(`${served.base}${path}`, from(address, { method: allowed, redirect: 'manual' }));
    expect(first.status).not.toBe(429);
    await first.body?.cancel();
    const second = await fetch(`${served.base}${path}`, from(address, { method: allowed, redirect: 'manual' }));
    expect(second.status).toBe(429);
    await second.body?.cancel();
  });
});
