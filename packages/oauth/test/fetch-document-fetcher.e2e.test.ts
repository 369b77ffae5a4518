import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DocumentRefusedError, fetchDocumentFetcher, type FetchDocumentFetcherOptions } from '@toolwright/oauth';
import { refusalOf } from './fixtures/refusalOf';

type Route = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The fetch-based document fetcher (the default on Deno, Bun and Workers), on node's fetch: the
 * documents come from a real HTTP server on 127.0.0.1, reached through the fetcher's test-only
 * fetch (https://<name>/<path> goes to it); the resolver, when given, is the test's.
 */
describe('fetchDocumentFetcher (the edge runtimes’ SSRF guards)', () => {
  const routes = new Map<string, Route>();
  const hits: string[] = [];
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(`${req.headers['x-host']}${req.url}`);
      const route = routes.get(`${req.headers['x-host']}${req.url}`);
      if (route) route(req, res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  beforeEach(() => {
    routes.clear();
    hits.length = 0;
  });

  const fetcher = (options: Omit<FetchDocumentFetcherOptions, 'unsafeForTests'> = {}) =>
    fetchDocumentFetcher({
      resolve: async () => ['93.184.215.14'],
      ...options,
      unsafeForTests: {
        fetch: (input, init) => {
          const url = new URL(String(input));
          return fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-host': url.host } });
        },
      },
    });
  const json =
    (body: unknown, headers: Record<string, string> = {}): Route =>
    (_req, res) =>
      void res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  it('fetches a JSON document, with its ETag and max-age, and revalidates it', async () => {
    routes.set('client.example/doc.json', (req, res) =>
      req.headers['if-none-match'] === '"v1"' ? void res.writeHead(304, { 'cache-control': 'max-age=60' }).end() : json({ ok: true }, { etag: '"v1"', 'cache-control': 'max-age=120' })(req, res),
    );
    const fetched = await fetcher()(new URL('https://client.example/doc.json'));
    expect(fetched).toEqual({ status: 200, body: '{"ok":true}', etag: '"v1"', maxAgeSeconds: 120 });
    expect(await fetcher()(new URL('https://client.example/doc.json'), '"v1"')).toEqual({ status: 304, etag: '"v1"', maxAgeSeconds: 60 });
  });

  it.each([
    ['a loopback address', 'https://127.0.0.1/doc.json'],
    ['a private address', 'https://10.0.0.7/doc.json'],
    ['a link-local address (cloud metadata)', 'https://169.254.169.254/latest/meta-data'],
    ['the IPv6 loopback', 'https://[::1]/doc.json'],
    ['an IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/doc.json'],
    ['localhost', 'https://localhost/doc.json'],
    ['a .localhost name', 'https://app.localhost/doc.json'],
    ['a .internal name', 'https://metadata.google.internal/doc.json'],
    ['a single-label name', 'https://intranet/doc.json'],
  ])('refuses %s before any request', async (_name, url) => {
    expect(await refusalOf(fetcher()(new URL(url)))).toMatch(/not a public address/);
    expect(hits).toHaveLength(0);
  });

  it('refuses a name the runtime resolves to a private address, and plain http', async () => {
    expect(await refusalOf(fetcher({ resolve: async () => ['93.184.215.14', '10.1.2.3'] })(new URL('https://client.example/doc.json')))).toMatch(/resolves to 10\.1\.2\.3/);
    expect(await refusalOf(fetcher()(new URL('http://client.example/doc.json')))).toMatch(/not an https URL/);
    expect(hits).toHaveLength(0);
  });

  it('refuses a name the runtime cannot resolve, or resolves to no address', async () => {
    const failing = async (): Promise<string[]> => {
      throw new Error('ENOTFOUND');
    };
    expect(await refusalOf(fetcher({ resolve: failing })(new URL('https://client.example/doc.json')))).toBe('the host client.example does not resolve');
    expect(await refusalOf(fetcher({ resolve: async () => [] })(new URL('https://client.example/doc.json')))).toBe('the host client.example does not resolve');
    expect(hits).toHaveLength(0);
  });

  it("marks a refusal for an address that is not public as 'not-public' (all the client is told), any other as 'unfetchable'", async () => {
    const kind = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: unknown) => (error instanceof DocumentRefusedError ? error.refusal : error),
      );
    routes.set('client.example/to-local.json', (_req, res) => void res.writeHead(307, { location: 'https://db.internal/doc.json' }).end());
    const notPublic = [
      fetcher()(new URL('https://10.0.0.7/doc.json')),
      fetcher()(new URL('https://metadata.google.internal/doc.json')),
      fetcher({ resolve: async () => ['10.1.2.3'] })(new URL('https://client.example/doc.json')),
      fetcher({ resolve: async () => [] })(new URL('https://client.example/doc.json')),
      fetcher()(new URL('https://client.example/to-local.json')),
    ];
    expect(await Promise.all(notPublic.map(kind))).toEqual(new Array(5).fill('not-public'));
    expect(await Promise.all([fetcher()(new URL('http://client.example/doc.json')), fetcher()(new URL('https://client.example/missing.json'))].map(kind))).toEqual(['unfetchable', 'unfetchable']);
  });

  it('checks each redirect like the first URL, and follows at most maxRedirects', async () => {
    routes.set('client.example/to-loopback.json', (_req, res) => void res.writeHead(302, { location: 'https://127.0.0.1/doc.json' }).end());
    routes.set('client.example/to-local.json', (_req, res) => void res.writeHead(307, { location: 'https://db.internal/doc.json' }).end());
    routes.set('client.example/moved.json', (_req, res) => void res.writeHead(301, { location: 'https://other.example/doc.json' }).end());
    routes.set('other.example/doc.json', json({ moved: true }));
    routes.set('client.example/loop.json', (_req, res) => void res.writeHead(302, { location: '/loop.json' }).end());
    expect(await refusalOf(fetcher()(new URL('https://client.example/to-loopback.json')))).toMatch(/127\.0\.0\.1 is not a public address/);
    expect(await refusalOf(fetcher()(new URL('https://client.example/to-local.json')))).toMatch(/db\.internal is not a public address/);
    expect(JSON.parse((await fetcher()(new URL('https://client.example/moved.json'))).body!)).toEqual({ moved: true });
    expect(await refusalOf(fetcher()(new URL('https://client.example/loop.json')))).toMatch(/redirects more than 2 times/);
  });

  it('refuses an oversized document (declared or streamed), a slow one, a non-JSON one and an error status', async () => {
    routes.set('client.example/big.json', json({ padding: 'x'.repeat(6000) }));
    routes.set('client.example/streamed.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"padding":"');
      res.write('y'.repeat(6000));
      res.end('"}');
    });
    routes.set('client.example/slow.json', (_req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 2000).unref());
    routes.set('client.example/html.json', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>'));
    routes.set('client.example/gone.json', (_req, res) => void res.writeHead(500).end());
    expect(await refusalOf(fetcher()(new URL('https://client.example/big.json')))).toMatch(/larger than 5120 bytes/);
    expect(await refusalOf(fetcher()(new URL('https://client.example/streamed.json')))).toMatch(/larger than 5120 bytes/);
    expect(await refusalOf(fetcher({ timeoutMs: 300 })(new URL('https://client.example/slow.json')))).toMatch(/longer than 300 ms/);
    expect(await refusalOf(fetcher()(new URL('https://client.example/html.json')))).toMatch(/text\/html, not application\/json/);
    expect(await refusalOf(fetcher()(new URL('https://client.example/gone.json')))).toMatch(/HTTP 500/);
  });
});
