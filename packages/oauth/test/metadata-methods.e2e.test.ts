import { serveOAuth, type Served } from './fixtures/serveOAuth';

/**
 * The public documents of the authorization server (its RFC 8414 metadata, at the OpenID
 * discovery paths too, and its signing keys) are read with GET or HEAD, and a browser's CORS
 * preflight is answered; any other method is refused with 405 and `Allow: GET, HEAD, OPTIONS`, with an
 * OAuth error in JSON, through the node listener and the fetch handler alike.
 */
describe.each(['node', 'fetch'] as const)('methods at the metadata and the keys (%s)', (mode) => {
  let served: Served;
  beforeAll(async () => {
    served = await serveOAuth(mode);
  });
  afterAll(() => served.close());

  const paths = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/jwks.json'];

  it.each(paths)('%s: GET answers the document, HEAD the same without its body', async (path) => {
    const get = await fetch(`${served.base}${path}`);
    expect([get.status, get.headers.get('cache-control')]).toEqual([200, 'public, max-age=3600']);
    expect(await get.json()).toEqual(expect.any(Object));
    const head = await fetch(`${served.base}${path}`, { method: 'HEAD' });
    expect([head.status, head.headers.get('cache-control'), await head.text()]).toEqual([200, 'public, max-age=3600', '']);
  });

  it.each(paths)('%s: a CORS preflight is answered 204 for any origin', async (path) => {
    const preflight = await fetch(`${served.base}${path}`, { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' } });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
  });

  it.each(paths.flatMap((path) => ['POST', 'PUT', 'DELETE', 'PATCH'].map((method) => [path, method] as const)))('%s: %s is refused with 405 and Allow: GET, HEAD, OPTIONS', async (path, method) => {
    const answer = await fetch(`${served.base}${path}`, { method, headers: { 'content-type': 'application/json' }, body: '{}' });
    expect([answer.status, answer.headers.get('allow'), answer.headers.get('cache-control')]).toEqual([405, 'GET, HEAD, OPTIONS', 'no-store']);
    expect(await answer.json()).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('GET') });
  });
});

describe('methods at the metadata of an issuer with a path', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveOAuth('fetch', async (base) => ({ issuer: `${base}/auth` }));
  });
  afterAll(() => served.close());

  it.each(['/.well-known/oauth-authorization-server/auth', '/.well-known/openid-configuration/auth', '/auth/.well-known/openid-configuration', '/auth/jwks.json'])(
    '%s: GET 200, POST 405',
    async (path) => {
      const get = await fetch(`${served.base}${path}`);
      expect(get.status).toBe(200);
      await get.body?.cancel();
      const post = await fetch(`${served.base}${path}`, { method: 'POST' });
      expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
      await post.body?.cancel();
    },
  );
});
