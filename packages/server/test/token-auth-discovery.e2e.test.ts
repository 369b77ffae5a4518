import { Client, StreamableHTTPClientTransport, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { createApp, type App } from '@toolwright/server';
import type { HttpAuthOptions } from '@toolwright/server/auth';
import type { HttpListener } from '@toolwright/server/http';
import { HttpTools } from './fixtures/http.tools';

const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };
const verifyToken = (token: string) => (token === 's3cret' ? { token, clientId: 'ci', scopes: [] } : undefined);

/** A client that would sign in if the server sent it somewhere: it records where it was sent. */
function signInProvider(): OAuthClientProvider & { sentTo: URL[] } {
  let info: never;
  return {
    sentTo: [],
    redirectUrl: 'http://127.0.0.1:1/callback',
    clientMetadata: { redirect_uris: ['http://127.0.0.1:1/callback'], client_name: 'probe', token_endpoint_auth_method: 'none' },
    clientInformation: () => info,
    saveClientInformation: (value: never) => (info = value),
    tokens: () => undefined,
    saveTokens: () => undefined,
    redirectToAuthorization(url: URL) {
      this.sentTo.push(url);
    },
    saveCodeVerifier: () => undefined,
    codeVerifier: () => '',
  };
}

/** Connects a real SDK v2 client with an OAuth provider and no token; returns every URL it requested (none leaves the machine). */
async function urlsRequestedWithoutToken(url: string, provider: OAuthClientProvider): Promise<{ urls: URL[]; error: unknown }> {
  const urls: URL[] = [];
  const origin = new URL(url).origin;
  const recording: typeof fetch = (input, init) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    urls.push(target);
    return target.origin === origin ? fetch(input, init) : Promise.resolve(new Response('not here', { status: 404 }));
  };
  const client = new Client({ name: 'probe', version: '1' });
  const error = await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider, fetch: recording })).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { urls, error };
}

describe('static bearer tokens: no authorization server is named, none is looked for', () => {
  let app: App;
  let tokens: HttpListener;
  let oauth: HttpListener;
  beforeAll(async () => {
    app = await createApp({ name: 'tokens', version: '1.0.0', tools: [HttpTools] });
    const tokenAuth: HttpAuthOptions = { verifyToken };
    tokens = await app.listen({ transport: 'http', port: 0, ...quiet, auth: tokenAuth });
    oauth = await app.listen({ transport: 'http', port: 0, ...quiet, auth: { verifyToken, authorizationServers: ['https://issuer.example.org'] } });
  });
  afterAll(() => Promise.all([tokens.close(), oauth.close()]));

  it('answers 401 with a realm and no resource_metadata, and serves no RFC 9728 metadata', async () => {
    const response = await fetch(tokens.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="mcp"');
    expect(await response.json()).toEqual({ error: 'invalid_request', error_description: 'This server requires a bearer token in the Authorization header.' });
    const refused = await fetch(tokens.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer wrong' }, body: '{}' });
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="The access token is invalid.", realm="mcp"');
    const base = new URL(tokens.url).origin;
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      expect((await fetch(`${base}${path}`)).status).toBe(404);
    }
  });

  it('a real client without a token is sent to no other host and to no sign-in page', async () => {
    const provider = signInProvider();
    const { urls, error } = await urlsRequestedWithoutToken(tokens.url, provider);
    expect(error).toBeInstanceOf(Error);
    expect(provider.sentTo).toEqual([]);
    expect(urls.filter((u) => u.origin !== new URL(tokens.url).origin)).toEqual([]);
  });

  it('the OAuth case is unchanged: the client is sent to the named authorization server', async () => {
    const { urls } = await urlsRequestedWithoutToken(oauth.url, signInProvider());
    expect(urls.some((u) => u.origin === 'https://issuer.example.org')).toBe(true);
    const metadata = await fetch(`${new URL(oauth.url).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(await metadata.json()).toMatchObject({ authorization_servers: ['https://issuer.example.org'] });
  });

  it('a real client with the token is served', async () => {
    const client = new Client({ name: 'probe', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(tokens.url), { requestInit: { headers: { Authorization: 'Bearer s3cret' } } }));
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toMatchObject({ clientId: 'ci' });
    await client.close();
  });
});
