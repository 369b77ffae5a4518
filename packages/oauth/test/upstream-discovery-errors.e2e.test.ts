import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizeUrl, pkcePair, registerClient } from './fixtures/rawFlow';
import { serveOAuth, type Served } from './fixtures/serveOAuth';

/**
 * An upstream provider's OpenID discovery answer that cannot be used fails the sign-in at
 * `/authorize` with a 500 that tells the client nothing, and the log says which problem it is:
 * an answer that is no JSON object (with its status and content type), a document without an
 * issuer, one naming another issuer (a mix-up), or one without the authorization or token
 * endpoint (which used to pass discovery and fail later as a TypeError). Plain http endpoints are
 * taken only on this machine, or on the hosts the provider's `plainHttpHosts` names.
 */
describe('an upstream discovery document that cannot be used', () => {
  let provider: Server;
  let base: string;
  let served: Served;
  const logged: string[] = [];
  /** What the provider's discovery endpoint answers. */
  let discovery: { type: string; body: string } = { type: 'application/json', body: 'null' };
  beforeAll(async () => {
    provider = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': discovery.type }).end(discovery.body);
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    const logger = { debug() {}, info() {}, warn: (line: string) => void logged.push(line), error: (line: string) => void logged.push(line) };
    served = await serveOAuth('node', {
      upstream: { name: 'corp', issuer: base, clientId: 'toolwright', clientSecret: 'upstream-client-secret-for-tests-only', scopes: ['openid'] },
      secret: 'a-test-secret-of-at-least-32-characters',
      logger,
    });
  });
  afterAll(async () => {
    await served.close();
    await new Promise<void>((resolve) => provider.close(() => resolve()));
  });

  /** Starts a sign-in at /authorize (of `at`, by default the server without plainHttpHosts): its status, its body, its Location, and what was logged meanwhile. */
  async function startSignIn(at: Served = served): Promise<{ status: number; body: string; location: string | null; log: string }> {
    logged.length = 0;
    const clientId = String((await registerClient(at.base)).body.client_id);
    const started = await fetch(authorizeUrl(at.base, { client_id: clientId, code_challenge: pkcePair().challenge }), { redirect: 'manual' });
    return { status: started.status, body: await started.text(), location: started.headers.get('location'), log: logged.join('\n') };
  }

  const document = (fields: Record<string, unknown>) => ({
    type: 'application/json',
    body: JSON.stringify({ issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, ...fields }),
  });

  it.each([
    ['null', { type: 'application/json', body: 'null' }, 'answered no JSON object (HTTP 200, application/json)'],
    ['an array', { type: 'application/json', body: '[]' }, 'answered no JSON object (HTTP 200, application/json)'],
    ['an HTML page', { type: 'text/html; charset=utf-8', body: '<html>maintenance</html>' }, 'answered no JSON object (HTTP 200, text/html; charset=utf-8)'],
  ])('discovery answering %s: the log says so, not that the document names another issuer', async (_name, answer, problem) => {
    discovery = answer;
    const { status, body, log } = await startSignIn();
    expect(status).toBe(500);
    expect(body).not.toContain('discovery');
    expect(log).toContain(`Toolwright oauth: upstream corp: discovery at ${base}/.well-known/openid-configuration ${problem}; check that issuer is the provider's OpenID Connect issuer`);
    expect(log).not.toContain('names issuer');
  });

  it('a document without issuer: the log says it names none', async () => {
    discovery = document({ issuer: undefined });
    const { status, log } = await startSignIn();
    expect(status).toBe(500);
    expect(log).toContain(`the discovery document at ${base}/.well-known/openid-configuration names no issuer; it must name ${base}`);
  });

  it('a document naming another issuer: the mix-up defence refuses it, naming both', async () => {
    discovery = document({ issuer: 'https://other.example' });
    const { status, log } = await startSignIn();
    expect(status).toBe(500);
    expect(log).toContain(`names issuer "https://other.example", not ${base}`);
  });

  it.each(['authorization_endpoint', 'token_endpoint'])('a document without %s is refused at discovery, naming the field (no TypeError later)', async (field) => {
    for (const value of [undefined, 42, 'not a url']) {
      discovery = document({ [field]: value });
      const { status, log } = await startSignIn();
      expect(status).toBe(500);
      expect(log).toContain(`the discovery document at ${base}/.well-known/openid-configuration has no ${field} URL; set `);
      expect(log).not.toContain('TypeError');
    }
  });

  const OPTIONS: Record<string, string> = {
    authorization_endpoint: 'authorizationEndpoint',
    token_endpoint: 'tokenEndpoint',
    userinfo_endpoint: 'userinfoEndpoint',
    revocation_endpoint: 'revocationEndpoint',
  };

  it.each(Object.entries(OPTIONS))('a document giving a plain-http %s off this machine is refused at discovery, naming the field, the URL and the fix', async (field, option) => {
    for (const insecure of [`http://idp.example.com/${field}`, `http://10.0.0.5:8080/${field}`, `ftp://idp.example.com/${field}`]) {
      discovery = document({ [field]: insecure });
      const { status, body, log } = await startSignIn();
      expect([status, body]).toEqual([500, expect.not.stringContaining(insecure)]);
      expect(log).toContain(
        `Toolwright oauth: upstream corp: the discovery document at ${base}/.well-known/openid-configuration gives ${field} '${insecure}', which is not https (http only on localhost, 127.0.0.1 or [::1], or on a host named in the provider's plainHttpHosts): over plain http, anyone on the way`,
      );
      expect(log).toContain(`Have the provider publish its https endpoints, or set ${option} on the upstream provider to the https one.`);
      // Plain http (not ftp) names the way out for a provider on a private network, with the host to name.
      const wayOut = `Only if the provider is on a private network with this server (e.g. the same docker compose network), where no one else is on the way, name its host in the upstream provider's plainHttpHosts, e.g. plainHttpHosts: ['${new URL(insecure).host}'].`;
      if (insecure.startsWith('http:')) expect(log).toContain(`the https one. ${wayOut}`);
      else expect(log).not.toContain('plainHttpHosts, e.g.');
    }
  });

  it.each(['userinfo_endpoint', 'revocation_endpoint'])('a document giving a %s that is no absolute URL is refused at discovery (it used to be taken as it was)', async (field) => {
    for (const [value, shown] of [
      ['/userinfo', "'/userinfo'"],
      [42, '42'],
    ] as const) {
      discovery = document({ [field]: value });
      const { status, log } = await startSignIn();
      expect(status).toBe(500);
      expect(log).toContain(
        `the discovery document at ${base}/.well-known/openid-configuration gives ${field} ${shown}, which is no absolute URL; set ${OPTIONS[field]} on the upstream provider, or fix its discovery document.`,
      );
    }
  });

  it('once the document is whole, the sign-in goes to the provider', async () => {
    discovery = document({});
    const { status } = await startSignIn();
    expect(status).toBe(302);
  });

  it('plain-http endpoints on this machine (localhost, 127.0.0.1, [::1]) are taken, as tests and local development use them', async () => {
    discovery = document({ authorization_endpoint: 'http://localhost:9/authorize', userinfo_endpoint: 'http://[::1]:9/userinfo', revocation_endpoint: `${base}/revoke` });
    const { status } = await startSignIn();
    expect(status).toBe(302);
  });

  describe('with plainHttpHosts naming the provider on a private network', () => {
    /** Starts a sign-in at a fresh server (a used discovery document is kept) whose provider has `plainHttpHosts`. */
    async function signInWith(plainHttpHosts: readonly string[] | undefined): Promise<{ status: number; location: string | null; log: string }> {
      const fresh = await serveOAuth('fetch', {
        upstream: { name: 'corp', issuer: base, clientId: 'toolwright', clientSecret: 'upstream-client-secret-for-tests-only', scopes: ['openid'], ...(plainHttpHosts && { plainHttpHosts }) },
        secret: 'a-test-secret-of-at-least-32-characters',
        logger: { debug() {}, info() {}, warn: (line: string) => void logged.push(line), error: (line: string) => void logged.push(line) },
      });
      try {
        return await startSignIn(fresh);
      } finally {
        await fresh.close();
      }
    }
    const HOSTS = ['keycloak', 'idp.internal:8080'];

    it.each(['http://keycloak:8080', 'http://KEYCLOAK', 'http://idp.internal:8080'])(
      'a document naming plain-http endpoints at %s (a named host at any port, or a named host:port) is taken: the sign-in goes there',
      async (at) => {
        discovery = document({ authorization_endpoint: `${at}/authorize`, token_endpoint: `${at}/token`, userinfo_endpoint: `${at}/userinfo`, revocation_endpoint: `${at}/revoke` });
        const { status, location, log } = await signInWith(HOSTS);
        expect([status, log]).toEqual([302, '']);
        expect(location?.startsWith(`${at.toLowerCase()}/authorize?`)).toBe(true);
      },
    );

    it.each([
      ['another host', 'http://other-idp:8080/token'],
      ['another port of a host:port entry', 'http://idp.internal:9090/token'],
      ['a host that only ends in a named one', 'http://evil-keycloak/token'],
    ])('%s over plain http is still refused, naming the option as the way out', async (_name, insecure) => {
      discovery = document({ token_endpoint: insecure });
      const { status, log } = await signInWith(HOSTS);
      expect(status).toBe(500);
      expect(log).toContain(`gives token_endpoint '${insecure}', which is not https (http only on localhost, 127.0.0.1 or [::1], or on a host named in the provider's plainHttpHosts)`);
      expect(log).toContain(`plainHttpHosts, e.g. plainHttpHosts: ['${new URL(insecure).host}'].`);
    });

    it('without the option, the same document is refused', async () => {
      discovery = document({ token_endpoint: 'http://keycloak:8080/token' });
      const { status, log } = await signInWith(undefined);
      expect(status).toBe(500);
      expect(log).toContain("gives token_endpoint 'http://keycloak:8080/token', which is not https");
    });
  });
});
