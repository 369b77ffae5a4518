import { oidcUpstream } from '@toolwright/oauth';
import { serveOAuth, type Served } from './fixtures/serveOAuth';

/**
 * An OPTIONS request to an endpoint of the authorization server is answered 204 with `Allow`
 * naming exactly the methods that endpoint serves (HEAD wherever GET is, but at `/authorize`
 * and `/callback`, which refuse HEAD), and OPTIONS itself. The endpoints a browser-based client
 * calls from another origin (the metadata, the keys, `/token`, `/register`, `/revoke`) answer a
 * CORS preflight, whose `Access-Control-Allow-Methods` names those methods too (no POST where
 * only GET is served); the others answer none. Answers other than a preflight's carry no
 * `Access-Control-Allow-Methods`, which only a preflight reads. A method an endpoint does not
 * serve is refused with 405 whose `Allow` is its OPTIONS answer's (RFC 9110 §15.5.6).
 */
const OPEN = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/jwks.json', '/token', '/register', '/revoke'];
const METHODS: Record<string, string> = {
  '/.well-known/oauth-authorization-server': 'GET, HEAD',
  '/.well-known/openid-configuration': 'GET, HEAD',
  '/jwks.json': 'GET, HEAD',
  '/authorize': 'GET',
  '/authorize/consent': 'POST',
  '/token': 'POST',
  '/register': 'POST',
  '/revoke': 'POST',
  '/callback': 'GET',
};

describe.each(['node', 'fetch'] as const)('OPTIONS at the authorization server (%s)', (mode) => {
  let served: Served;
  beforeAll(async () => {
    // An upstream provider, so /callback is served; OPTIONS there reads nothing of it (no discovery).
    const upstream = oidcUpstream({ issuer: 'https://idp.example.com', clientId: 'toolwright', clientSecret: 'an-upstream-client-secret' });
    served = await serveOAuth(mode, { upstream, secret: 'a-test-secret-of-at-least-32-characters' });
  });
  afterAll(() => served.close());

  it('serves every path of the table, and only those', () => {
    expect([...served.oauth.paths].sort()).toEqual(Object.keys(METHODS).sort());
  });

  it.each(Object.entries(METHODS))('%s: a preflight is answered 204, Allow: %s, OPTIONS', async (path, methods) => {
    const asked = OPEN.includes(path) && methods.includes('POST') ? 'POST' : 'GET';
    const answer = await fetch(`${served.base}${path}`, { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': asked } });
    expect(await answer.text()).toBe('');
    const cors = OPEN.includes(path)
      ? {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': methods,
          'access-control-allow-headers': 'Authorization, Content-Type, MCP-Protocol-Version',
          'access-control-max-age': '600',
        }
      : {};
    const seen = Object.fromEntries([...answer.headers].filter(([name]) => name === 'allow' || name.startsWith('access-control-')));
    expect([answer.status, seen]).toEqual([204, { allow: `${methods}, OPTIONS`, ...cors }]);
  });

  it.each(Object.entries(METHODS).filter(([path]) => !OPEN.includes(path)))('%s: a plain OPTIONS (no preflight) is answered 204, Allow: %s, OPTIONS', async (path, methods) => {
    const answer = await fetch(`${served.base}${path}`, { method: 'OPTIONS' });
    expect([answer.status, answer.headers.get('allow'), answer.headers.get('access-control-allow-origin')]).toEqual([204, `${methods}, OPTIONS`, null]);
  });

  // Every endpoint, with methods it does not serve: PUT and DELETE (served nowhere), and GET or POST, whichever it lacks.
  const refused = Object.entries(METHODS).flatMap(([path, methods]) =>
    ['PUT', 'DELETE', methods.includes('GET') ? 'POST' : 'GET', ...(methods.includes('HEAD') ? [] : ['HEAD'])].map((method) => [path, method] as const),
  );
  it.each(refused)('%s: %s is refused with 405 whose Allow is the OPTIONS answer’s', async (path, method) => {
    const options = await fetch(`${served.base}${path}`, { method: 'OPTIONS' });
    const answer = await fetch(`${served.base}${path}`, { method, redirect: 'manual' });
    await answer.body?.cancel();
    expect([options.status, answer.status, answer.headers.get('allow')]).toEqual([204, 405, options.headers.get('allow')]);
    expect(answer.headers.get('allow')).toBe(`${METHODS[path]}, OPTIONS`);
  });

  it.each([
    ['/.well-known/oauth-authorization-server', 'GET', 200],
    ['/jwks.json', 'GET', 200],
    ['/jwks.json', 'POST', 405],
    ['/token', 'POST', 400],
    ['/token', 'GET', 405],
    ['/revoke', 'POST', 400],
  ])('%s: the %s answer (%d) is open to any origin and names no methods for preflights', async (path, method, status) => {
    const answer = await fetch(`${served.base}${path}`, { method, headers: { origin: 'https://app.example.com' } });
    await answer.body?.cancel();
    expect([answer.status, answer.headers.get('access-control-allow-origin'), answer.headers.get('access-control-allow-methods')]).toEqual([status, '*', null]);
  });
});
