import { connect, createServer as createH2Server, type Http2Server } from 'node:http2';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOAuthServer, MemoryOAuthStore, type OAuthServer, type OAuthServerOptions } from '@toolwright/oauth';
import { registerClient } from './fixtures/rawFlow';

/**
 * The headers the endpoints see behind the node adapter (`oauth.node`, `oauth.handleNode`):
 * those of `req.headers`, which a host may have edited, with the raw lines of a field that may
 * not repeat joined (repeated-headers.e2e.test.ts), and without HTTP/2 pseudo-headers. A
 * header value a host set that `Headers` refuses is the server's failure (500, logged as an
 * error), not a request the client must send again.
 */
async function oauthAt(base: string, logger: OAuthServerOptions['logger'] = { debug() {}, info() {}, warn() {}, error() {} }): Promise<OAuthServer> {
  return createOAuthServer({
    issuer: base,
    resource: `${base}/mcp`,
    scopes: ['a'],
    store: new MemoryOAuthStore(),
    signIn: () => ({ subject: 'ada' }),
    logger,
  });
}

describe('oauth.handleNode behind node:http2 (compat API: the raw headers hold :method, :path, :authority, :scheme)', () => {
  let server: Http2Server;
  let base: string;
  const failures: unknown[] = [];
  beforeAll(async () => {
    let oauth: OAuthServer | undefined;
    server = createH2Server((req, res) => {
      oauth!.handleNode(req as unknown as IncomingMessage, res as unknown as ServerResponse).catch((error: unknown) => {
        failures.push(error);
        res.stream.close();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    oauth = await oauthAt(base);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** One request over h2c: its status and body. */
  async function h2(headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
    const client = connect(base);
    try {
      return await new Promise((resolve, reject) => {
        const stream = client.request(headers);
        let status = 0;
        let text = '';
        stream.on('response', (answer) => (status = Number(answer[':status'])));
        stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        stream.on('close', () => resolve({ status, text }));
        stream.on('error', reject);
        stream.end(body);
      });
    } finally {
      client.close();
    }
  }

  it('answers the metadata: 200', async () => {
    const answer = await h2({ ':path': '/.well-known/oauth-authorization-server' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ issuer: base });
    expect(failures).toEqual([]);
  });

  it('registers a client (a POST with a JSON body): 201', async () => {
    const body = JSON.stringify({ client_name: 'h2', redirect_uris: ['http://127.0.0.1:8976/callback'], token_endpoint_auth_method: 'none' });
    const answer = await h2({ ':method': 'POST', ':path': '/register', 'content-type': 'application/json' }, body);
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.text)).toMatchObject({ client_id: expect.any(String) });
    expect(failures).toEqual([]);
  });
});

describe('oauth.node behind a host that edits req.headers first (a gateway taking or setting Authorization)', () => {
  let server: Server;
  let base: string;
  let basic: string;
  const lines: string[] = [];
  /** What the host does to req.headers before it hands the request on. */
  let edit: (headers: IncomingMessage['headers']) => void = () => {};
  beforeAll(async () => {
    let oauth: OAuthServer | undefined;
    server = createServer((req, res) => {
      edit(req.headers);
      void oauth!.node(async (_req, nextRes) => void nextRes.writeHead(404).end())(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const log = (level: string) => (message: string) => void lines.push(`${level}: ${message}`);
    oauth = await oauthAt(base, { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') });
    const { body } = await registerClient(base, { token_endpoint_auth_method: 'client_secret_basic' });
    basic = `Basic ${btoa(`${String(body.client_id)}:${String(body.client_secret)}`)}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  /** A refresh at /token with `authorization` (one line per value): its status and OAuth error. */
  function refresh(authorization: string[]): Promise<{ status: number; error: unknown }> {
    const form = 'grant_type=refresh_token&refresh_token=x';
    const { hostname, port } = new URL(base);
    const lines = [
      ['Host', `${hostname}:${port}`],
      ['Content-Type', 'application/x-www-form-urlencoded'],
      ['Content-Length', String(form.length)],
      ...authorization.map((value) => ['Authorization', value]),
    ];
    return new Promise((resolve, reject) => {
      const req = request({ hostname, port, path: '/token', method: 'POST', headers: lines.flat() }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, error: (JSON.parse(text) as { error: unknown }).error }));
      });
      req.on('error', reject);
      req.end(form);
    });
  }

  it('left alone: the client authenticates (400 invalid_grant for its made-up refresh token)', async () => {
    edit = () => {};
    expect(await refresh([basic])).toEqual({ status: 400, error: 'invalid_grant' });
  });

  it('the host removed Authorization: the endpoint does not see it (401 invalid_client)', async () => {
    edit = (headers) => delete headers.authorization;
    expect(await refresh([basic])).toEqual({ status: 401, error: 'invalid_client' });
  });

  it('the host replaced Authorization with its own: the endpoint sees the replacement', async () => {
    edit = (headers) => void (headers.authorization = basic);
    expect(await refresh(['Basic d3Jvbmc6d3Jvbmc='])).toEqual({ status: 400, error: 'invalid_grant' });
    // Also where the client sent two lines: the host's one value is what counts.
    expect(await refresh(['Basic d3Jvbmc6d3Jvbmc=', 'Basic d3Jvbmc6d3Jvbmc='])).toEqual({ status: 400, error: 'invalid_grant' });
  });

  it('left alone with two Authorization lines: both are seen, joined, and refused (401), as on a fetch runtime', async () => {
    edit = () => {};
    expect(await refresh([basic, basic])).toEqual({ status: 401, error: 'invalid_client' });
  });

  it('the host set a value Headers refuses (not Latin-1): 500 server_error logged as an error, not a body for the client to send again', async () => {
    // A middleware copying a user's display name into a header.
    edit = (headers) => void (headers['x-user-name'] = 'Zoë 日本');
    lines.length = 0;
    const response = await fetch(`${base}/.well-known/oauth-authorization-server`);
    const body = (await response.json()) as { error: string; error_description: string };
    edit = () => {};
    expect([response.status, body.error]).toEqual([500, 'server_error']);
    expect(body.error_description).not.toMatch(/send it again/);
    expect(lines).toEqual([expect.stringMatching(/^error: toolwright oauth: GET \/\.well-known\/oauth-authorization-server failed: /)]);
    // The server still serves.
    expect((await fetch(`${base}/.well-known/oauth-authorization-server`)).status).toBe(200);
  });
});
