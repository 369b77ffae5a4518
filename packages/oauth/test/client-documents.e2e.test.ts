import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { nodeDocumentFetcher } from '@toolwright/oauth';
import { TestBrowser } from './fixtures/browser';
import { MemoryClientProvider } from './fixtures/clientProvider';
import { jsonRoute, startDocumentHost } from './fixtures/documentHost';
import { CALLBACK, authorizeUrl, pkcePair } from './fixtures/rawFlow';
import { serveOAuth, testClock, type Served } from './fixtures/serveOAuth';
import { refusalOf } from './fixtures/refusalOf';

const CLIENT_ID = 'https://client.example/oauth/client.json';

function clientDocument(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { client_id: CLIENT_ID, client_name: 'Document client', redirect_uris: [CALLBACK], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none', ...overrides };
}

/** Client ID metadata documents (CIMD): fetched over real https from a local host, through every guard. */
describe('client ID metadata documents', () => {
  let host: Awaited<ReturnType<typeof startDocumentHost>>;
  let served: Served;
  const clock = testClock();
  beforeAll(async () => {
    host = await startDocumentHost();
    served = await serveOAuth('node', { now: clock.now, clientDocuments: { fetcher: host.fetcher() } });
  });
  afterAll(async () => {
    await served.close();
    await host.close();
  });
  beforeEach(() => {
    host.routes.clear();
    host.hits.length = 0;
  });

  it('the SDK v2 client signs in with its metadata document URL as client_id (no registration) and calls tools', async () => {
    host.routes.set('client.example/oauth/client.json', jsonRoute(clientDocument()));
    const provider = new MemoryClientProvider(CALLBACK, { client_name: 'Document client' }, CLIENT_ID);
    const transport = new StreamableHTTPClientTransport(new URL(served.mcpUrl), { authProvider: provider });
    await expect(new Client({ name: 't', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl!.searchParams.get('client_id')).toBe(CLIENT_ID);
    const browser = new TestBrowser();
    const callback = await browser.authorize(provider.authorizationUrl!.href, 'http://127.0.0.1:8976/');
    await transport.finishAuth(callback.searchParams);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.mcpUrl), { authProvider: provider }));
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(JSON.parse((who.content as { text: string }[])[0]!.text)).toMatchObject({ sub: 'ada', clientId: CLIENT_ID });
    await client.close();
    // Fetched once, then served from the cache for the consent page and the token request.
    expect(host.hits.filter((h) => h.includes('/oauth/client.json'))).toHaveLength(1);
  });

  it('caches a document for its max-age, then revalidates it with If-None-Match', async () => {
    let served304 = 0;
    host.routes.set('client.example/cache/client.json', (req, res) => {
      if (req.headers['if-none-match'] === '"v1"') {
        served304++;
        return void res.writeHead(304, { etag: '"v1"', 'cache-control': 'max-age=120' }).end();
      }
      res
        .writeHead(200, { 'content-type': 'application/json', etag: '"v1"', 'cache-control': 'max-age=120' })
        .end(JSON.stringify(clientDocument({ client_id: 'https://client.example/cache/client.json' })));
    });
    const open = () => fetch(authorizeUrl(served.base, { client_id: 'https://client.example/cache/client.json', code_challenge: pkcePair().challenge }), { redirect: 'manual' });
    expect((await open()).status).toBe(200);
    expect((await open()).status).toBe(200);
    expect(host.hits).toHaveLength(1);
    clock.advance(121);
    expect((await open()).status).toBe(200);
    expect(host.hits).toHaveLength(2);
    expect(served304).toBe(1);
  });

  it.each([
    ['a document whose client_id is another URL', { client_id: 'https://client.example/elsewhere.json' }, /client_id must be the URL/],
    ['a document with a client secret', { client_secret: 's3cret' }, /must not hold a client secret/],
    ['a confidential auth method', { token_endpoint_auth_method: 'client_secret_basic' }, /token_endpoint_auth_method &#34;none&#34;/],
    ['a plain-http redirect URI off loopback', { redirect_uris: ['http://app.example/cb'] }, /must use https/],
    ['something that is not JSON', undefined, /not a JSON object/],
  ])('refuses %s: an error page at /authorize, no redirect', async (_name, overrides, reason) => {
    const path = `/refused/${Math.random().toString(36).slice(2)}.json`;
    const url = `https://client.example${path}`;
    host.routes.set(`client.example${path}`, jsonRoute(overrides ? clientDocument({ client_id: url, ...overrides }) : 'not json'));
    const response = await fetch(authorizeUrl(served.base, { client_id: `https://client.example${path}`, code_challenge: pkcePair().challenge }), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toMatch(reason);
  });

  it('a redirect URI the document does not list is refused without a redirect', async () => {
    host.routes.set('client.example/oauth/client.json', jsonRoute(clientDocument()));
    const response = await fetch(authorizeUrl(served.base, { client_id: CLIENT_ID, code_challenge: pkcePair().challenge, redirect_uri: 'https://evil.example/cb' }), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });
});

describe('the document fetcher (SSRF guards)', () => {
  let host: Awaited<ReturnType<typeof startDocumentHost>>;
  beforeAll(async () => {
    host = await startDocumentHost();
  });
  afterAll(() => host.close());
  beforeEach(() => host.routes.clear());

  it.each([
    ['loopback', '127.0.0.1'],
    ['private 10/8', '10.1.2.3'],
    ['private 192.168/16', '192.168.0.10'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['IPv6 loopback', '::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['unique local IPv6', 'fd00::1'],
  ])('refuses a host that resolves to a %s address, before connecting', async (_name, address) => {
    host.routes.set('client.example/doc.json', jsonRoute(clientDocument()));
    const fetcher = host.fetcher({}, { 'client.example': [address] });
    expect(await refusalOf(fetcher(new URL('https://client.example/doc.json')))).toMatch(/not a public address/);
    expect(host.hits).toHaveLength(0);
  });

  it('refuses a host that resolves to no address, before connecting', async () => {
    host.routes.set('client.example/doc.json', jsonRoute(clientDocument()));
    const fetcher = host.fetcher({}, { 'client.example': [] });
    expect(await refusalOf(fetcher(new URL('https://client.example/doc.json')))).toBe('the host client.example does not resolve');
    expect(host.hits).toHaveLength(0);
  });

  it('refuses when any one of the addresses is private (no picking the good one)', async () => {
    const fetcher = host.fetcher({}, { 'client.example': ['93.184.215.14', '10.0.0.1'] });
    expect(await refusalOf(fetcher(new URL('https://client.example/doc.json')))).toMatch(/10\.0\.0\.1/);
  });

  it('refuses loopback and private IP literals with the production defaults (no test hooks)', async () => {
    const fetcher = nodeDocumentFetcher();
    expect(await refusalOf(fetcher(new URL(`https://127.0.0.1:${host.port}/doc.json`)))).toMatch(/not a public address/);
    expect(await refusalOf(fetcher(new URL('https://10.0.0.7/doc.json')))).toMatch(/not a public address/);
    expect(await refusalOf(fetcher(new URL('https://[::1]/doc.json')))).toMatch(/not a public address/);
    expect(await refusalOf(fetcher(new URL('https://localhost/doc.json')))).toMatch(/not a public address/);
    expect(await refusalOf(fetcher(new URL('http://client.example/doc.json')))).toMatch(/not an https URL/);
  });

  it('refuses a redirect to a loopback address or to a host that resolves to one', async () => {
    host.routes.set('client.example/to-literal.json', (_req, res) => void res.writeHead(302, { location: `https://127.0.0.1:${host.port}/doc.json` }).end());
    host.routes.set('client.example/to-rebind.json', (_req, res) => void res.writeHead(307, { location: 'https://rebind.example/doc.json' }).end());
    host.routes.set('client.example/to-http.json', (_req, res) => void res.writeHead(301, { location: 'http://other.example/doc.json' }).end());
    const fetcher = host.fetcher({}, { 'rebind.example': ['127.0.0.1'] });
    expect(await refusalOf(fetcher(new URL('https://client.example/to-literal.json')))).toMatch(/127\.0\.0\.1.*not a public address/);
    expect(await refusalOf(fetcher(new URL('https://client.example/to-rebind.json')))).toMatch(/rebind\.example resolves to 127\.0\.0\.1/);
    expect(await refusalOf(fetcher(new URL('https://client.example/to-http.json')))).toMatch(/not an https URL/);
  });

  it('follows a redirect to another public https host, but no more than maxRedirects', async () => {
    host.routes.set('client.example/moved.json', (_req, res) => void res.writeHead(301, { location: 'https://other.example/doc.json' }).end());
    host.routes.set('other.example/doc.json', jsonRoute({ ok: true }));
    host.routes.set('client.example/loop.json', (_req, res) => void res.writeHead(302, { location: '/loop.json' }).end());
    const fetched = await host.fetcher()(new URL('https://client.example/moved.json'));
    expect(JSON.parse(fetched.body!)).toEqual({ ok: true });
    expect(await refusalOf(host.fetcher()(new URL('https://client.example/loop.json')))).toMatch(/redirects more than 2 times/);
  });

  it('refuses an oversized document (declared or streamed), a slow one, a non-JSON one, and an error status', async () => {
    const big = JSON.stringify({ padding: 'x'.repeat(6000) });
    host.routes.set('client.example/big.json', jsonRoute(big));
    host.routes.set('client.example/streamed.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"padding":"');
      res.write('y'.repeat(6000));
      res.end('"}');
    });
    host.routes.set('client.example/slow.json', (_req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 2000).unref());
    host.routes.set('client.example/html.json', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>'));
    host.routes.set('client.example/gone.json', (_req, res) => void res.writeHead(500).end());
    const fetcher = host.fetcher({ timeoutMs: 300 });
    expect(await refusalOf(fetcher(new URL('https://client.example/big.json')))).toMatch(/larger than 5120 bytes/);
    expect(await refusalOf(fetcher(new URL('https://client.example/streamed.json')))).toMatch(/larger than 5120 bytes/);
    expect(await refusalOf(fetcher(new URL('https://client.example/slow.json')))).toMatch(/longer than 300 ms/);
    expect(await refusalOf(fetcher(new URL('https://client.example/html.json')))).toMatch(/text\/html, not application\/json/);
    expect(await refusalOf(fetcher(new URL('https://client.example/gone.json')))).toMatch(/HTTP 500/);
  });

  it('checks the certificate: a host the test certificate does not name is refused', async () => {
    expect(await refusalOf(host.fetcher()(new URL('https://unnamed.example/doc.json')))).toMatch(/failed/);
  });
});
