import { ConfigError, type ToolLogger } from '@toolwright/core';
import { createOAuthServer, nodeDocumentFetcher, oidcUpstream, type OAuthServerOptions } from '@toolwright/oauth';
import { authorizeUrl, pkcePair, registerClient } from './fixtures/rawFlow';
import { serveOAuth, type Served } from './fixtures/serveOAuth';

/**
 * `consent: false` skips the page where a user sees which client asks and where the code goes.
 * With open registration (the default) any site can bring a client with its own redirect URI: a
 * user the `signIn` hook knows from a cookie then gets a code sent there unseen. The server says
 * so at start (with `signIn`, whose hook can refuse strangers), or refuses to start (with
 * `upstream`, where nothing here tells clients apart and MCP requires consent per client).
 */
const SESSION = 'session=ada';
/** Knows the user from the browser's session cookie, as an app's own login does. */
const cookieSignIn: OAuthServerOptions['signIn'] = (request) => (request.headers.get('cookie') === SESSION ? { subject: 'ada' } : new Response('log in first'));

function recordingLogger(): ToolLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug: () => {}, info: () => {}, warn: (message) => void warnings.push(message), error: () => {} };
}

describe('consent: false with clients any site can bring', () => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it('with signIn: a stranger’s client gets a signed-in user’s code unseen, so the server warns at start, naming the fix', async () => {
    const logger = recordingLogger();
    served = await serveOAuth('node', { consent: false, signIn: cookieSignIn, logger });
    expect(logger.warnings).toEqual([expect.stringMatching(/^toolwright oauth: consent: false with open client registration: any site can bring a client with its own redirect URI/)]);
    expect(logger.warnings[0]).toMatch(/check signIn\.client\.id and signIn\.redirectUri.*remove consent: false, or set registration: false and clientDocuments: false/);

    // What it warns of: a client registered by a stranger, at its own redirect URI, opened in the user's browser.
    const stranger = 'https://stranger.example/callback';
    const registered = await registerClient(served.base, { redirect_uris: [stranger] });
    const opened = await fetch(authorizeUrl(served.base, { client_id: String(registered.body.client_id), redirect_uri: stranger, code_challenge: pkcePair().challenge }), {
      redirect: 'manual',
      headers: { cookie: SESSION },
    });
    expect(opened.status).toBe(302);
    const location = new URL(opened.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(stranger);
    expect(location.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('with signIn: no warning with the consent page, or with neither registration nor documents from any site', async () => {
    for (const options of [
      {},
      { consent: false, registration: false, clientDocuments: false },
      { consent: false, registration: false, clientDocuments: { fetcher: () => Promise.reject(new Error('not ours')) } },
    ] as Partial<OAuthServerOptions>[]) {
      const logger = recordingLogger();
      await createOAuthServer({ issuer: 'https://auth.example.com', resource: 'https://mcp.example.com/mcp', signIn: cookieSignIn, logger, ...options } as OAuthServerOptions);
      expect(logger.warnings).toEqual([]);
    }
  });

  it('with upstream: refused at start with a ConfigError that names the fix; with registration and documents closed it starts', async () => {
    const upstream = oidcUpstream({ issuer: 'https://idp.example.com', clientId: 'toolwright', clientSecret: 'x'.repeat(32) });
    const options: OAuthServerOptions = { issuer: 'https://auth.example.com', resource: 'https://mcp.example.com/mcp', upstream, secret: 's'.repeat(32), consent: false };
    const refused = await createOAuthServer(options).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toMatch(
      /^Toolwright oauth: consent: false with upstream and open client registration: .*MCP requires a proxy to ask the user for each client\. Remove consent: false, or set registration: false and clientDocuments: false/,
    );
    // A fetcher of the app's own is no proof it fetches only the app's clients' documents (this one fetches from any site, with a timeout).
    for (const fetcher of [nodeDocumentFetcher({ timeoutMs: 2000 }), () => Promise.reject(new Error('not ours'))]) {
      const withFetcher = await createOAuthServer({ ...options, registration: false, clientDocuments: { fetcher } }).catch((error: unknown) => error);
      expect(withFetcher).toBeInstanceOf(ConfigError);
      expect((withFetcher as Error).message).toMatch(/upstream and client ID metadata documents on .*set clientDocuments: false\.$/);
    }
    const documentsOnly = await createOAuthServer({ ...options, registration: false }).catch((error: unknown) => error);
    expect((documentsOnly as Error).message).toMatch(/upstream and client ID metadata documents on \(with any fetcher: .*set clientDocuments: false\.$/);
    await expect(createOAuthServer({ ...options, registration: false, clientDocuments: false })).resolves.toBeDefined();
    await expect(createOAuthServer({ ...options, consent: true })).resolves.toBeDefined();
  });
});
