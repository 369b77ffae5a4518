import { randomUUID } from 'node:crypto';
import { ClientKey } from './fixtures/clientKey';
import { jsonRoute, startDocumentHost } from './fixtures/documentHost';
import { CALLBACK, authorizeUrl, pkcePair, registerClient, tokenRequest } from './fixtures/rawFlow';
import { serveOAuth, type Served } from './fixtures/serveOAuth';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** What the test's resolver answers: an internal host, a name that resolves nowhere, and public ones (every other `.example`). */
const NAMES = { 'rebind.example': ['10.0.0.5'], 'gone.example': [] };
/** What no answer may carry: the resolved address, the fetcher's own wording of an answer, a raw network error. */
const LEAKS = /10\.0\.0\.5|HTTP 404|text\/html|bytes|ECONN|ENOTFOUND|resolves to|does not resolve$/;

/**
 * A client's `jwks_uri` or client ID metadata document that could not be fetched: the answer
 * (error page at /authorize, `invalid_client` at /token) says only what the client can act on,
 * that the host does not resolve to a public address or that the URL could not be fetched,
 * never a resolved address, an answer's status, type or size, or a raw network error: anyone
 * could otherwise map internal DNS and services through the authorization server. The details
 * go to the server's log.
 */
describe('a refused fetch, as the client is told of it', () => {
  let host: Awaited<ReturnType<typeof startDocumentHost>>;
  let served: Served;
  const logged: string[] = [];
  beforeAll(async () => {
    host = await startDocumentHost();
    const logger = { debug() {}, info() {}, warn: (line: string) => void logged.push(line), error: (line: string) => void logged.push(line) };
    served = await serveOAuth('node', { logger, clientDocuments: { fetcher: host.fetcher({ timeoutMs: 2000 }, NAMES) } });
  });
  afterAll(async () => {
    await served.close();
    await host.close();
  });
  beforeEach(() => {
    logged.length = 0;
  });

  /** The /authorize error page and the /token answer for a document client at `url`. */
  async function answersFor(url: string): Promise<{ page: string; token: { status: number; body: Record<string, unknown> } }> {
    const response = await fetch(authorizeUrl(served.base, { client_id: url, code_challenge: pkcePair().challenge }), { redirect: 'manual' });
    expect([response.status, response.headers.get('location')]).toEqual([400, null]);
    const page = await response.text();
    const token = await tokenRequest(served.base, { grant_type: 'authorization_code', client_id: `${url}?token`, code: 'x', code_verifier: pkcePair().verifier, redirect_uri: CALLBACK });
    return { page, token };
  }

  it.each([
    ['a host that resolves to an internal address', 'rebind.example', /does not resolve to a public address/, /rebind\.example resolves to 10\.0\.0\.5/],
    ['a host that resolves to nothing (told the same: no DNS oracle)', 'gone.example', /does not resolve to a public address/, /gone\.example does not resolve/],
    ['an internal IP literal', '10.0.0.5', /does not resolve to a public address/, /10\.0\.0\.5.*not a public address/],
  ])('a client ID metadata document on %s', async (_name, hostname, told, detail) => {
    const { page, token } = await answersFor(`https://${hostname}/${randomUUID()}.json`);
    expect(page).toMatch(told);
    expect(page).not.toMatch(LEAKS);
    expect(token).toEqual({ status: 401, body: { error: 'invalid_client', error_description: expect.stringMatching(told) } });
    expect(String(token.body.error_description)).not.toMatch(LEAKS);
    expect(logged.join('\n')).toMatch(detail);
  });

  it.each([
    ['an error status', () => {}, /answered HTTP 404/],
    [
      'an answer that is not JSON',
      (path: string) => host.routes.set(`client.example${path}`, (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>intranet</h1>')),
      /text\/html/,
    ],
    ['an answer too large', (path: string) => host.routes.set(`client.example${path}`, jsonRoute({ pad: 'x'.repeat(6000) })), /larger than 5120 bytes/],
  ])('a client ID metadata document that answers %s: "could not be fetched", the detail in the log', async (_name, route, detail) => {
    const path = `/${randomUUID()}.json`;
    route(path);
    const { page, token } = await answersFor(`https://client.example${path}`);
    expect(page).toMatch(/could not be fetched/);
    expect(page).not.toMatch(LEAKS);
    expect(page).not.toMatch(/intranet/);
    expect(String(token.body.error_description)).toMatch(/could not be fetched/);
    expect(String(token.body.error_description)).not.toMatch(LEAKS);
    expect(logged.join('\n')).toMatch(detail);
  });

  it.each([
    ['a registered client', async (jwksUri: string) => String((await registerClient(served.base, { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: jwksUri })).body.client_id)],
    [
      'a metadata document client',
      async (jwksUri: string) => {
        const clientId = `https://client.example/${randomUUID()}.json`;
        host.routes.set(clientId.slice('https://'.length), jsonRoute({ client_id: clientId, redirect_uris: [CALLBACK], token_endpoint_auth_method: 'private_key_jwt', jwks_uri: jwksUri }));
        return clientId;
      },
    ],
  ])('private_key_jwt at /token, %s whose jwks_uri is internal or unfetchable', async (_name, clientFor) => {
    const key = new ClientKey();
    for (const [jwksUri, told, detail] of [
      // A URL of its own per case: a failed jwks_uri is remembered (not fetched, nor logged, again) for 30 s.
      [`https://rebind.example/${randomUUID()}/jwks.json`, /jwks_uri.*does not resolve to a public address/, /rebind\.example resolves to 10\.0\.0\.5/],
      [`https://client.example/${randomUUID()}/jwks.json`, /jwks_uri.*could not be fetched/, /answered HTTP 404/],
    ] as const) {
      logged.length = 0;
      const clientId = await clientFor(jwksUri);
      const answer = await tokenRequest(served.base, {
        grant_type: 'authorization_code',
        code: 'x',
        code_verifier: pkcePair().verifier,
        redirect_uri: CALLBACK,
        client_assertion_type: ASSERTION_TYPE,
        client_assertion: key.assertion(clientId, served.oauth.issuer),
      });
      expect(answer).toEqual({ status: 401, body: { error: 'invalid_client', error_description: expect.stringMatching(told) } });
      expect(String(answer.body.error_description)).not.toMatch(LEAKS);
      expect(logged.join('\n')).toMatch(detail);
    }
  });
});
