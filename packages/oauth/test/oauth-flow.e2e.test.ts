import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { TestBrowser } from './fixtures/browser';
import { MemoryClientProvider } from './fixtures/clientProvider';
import { serveOAuth, testClock, type Served } from './fixtures/serveOAuth';

const CALLBACK = 'http://127.0.0.1:8976/callback';

/** A tool's object result (Toolwright sends it as JSON text, and as structuredContent when the tool declares an output schema). */
function resultOf(result: { structuredContent?: unknown; content?: unknown }): unknown {
  return result.structuredContent ?? JSON.parse((result.content as { text: string }[])[0]!.text);
}

/** Signs a real SDK v2 client in: its own auth() flow, the test's browser in the middle. */
async function signIn(served: Served, provider: MemoryClientProvider, browser = new TestBrowser()): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(served.mcpUrl), { authProvider: provider });
  const client = new Client({ name: 'oauth-test', version: '1' });
  await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl).toBeDefined();
  const callback = await browser.authorize(provider.authorizationUrl!.href, 'http://127.0.0.1:8976/');
  expect(callback.searchParams.get('iss')).toBe(served.oauth.issuer);
  await transport.finishAuth(callback.searchParams);
  const signedIn = new Client({ name: 'oauth-test', version: '1' });
  await signedIn.connect(new StreamableHTTPClientTransport(new URL(served.mcpUrl), { authProvider: provider }));
  return signedIn;
}

describe.each(['node', 'fetch'] as const)('the SDK v2 client signs in through the %s endpoint', (mode) => {
  let served: Served;
  const clock = testClock();
  beforeAll(async () => {
    served = await serveOAuth(mode, { now: clock.now });
  });
  afterAll(() => served.close());

  it('discovers, registers (DCR), authorizes with PKCE, calls scoped tools, refreshes, and is refused after revocation', async () => {
    const provider = new MemoryClientProvider(CALLBACK, { client_name: 'Notes desktop' });
    const client = await signIn(served, provider);
    expect(provider.info?.client_id).toMatch(/^twc_/);
    const tokens = provider.tokens()!;
    expect(tokens.refresh_token).toMatch(/^twr_/);
    expect(tokens.scope).toBe('notes:read notes:write');

    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(resultOf(who)).toEqual({ sub: 'ada', clientId: provider.info!.client_id, scopes: ['notes:read', 'notes:write'] });
    expect((await client.callTool({ name: 'add_note', arguments: { text: 'hi' } })).content).toEqual([{ type: 'text', text: 'added: hi' }]);
    // The role it lacks: the tool is hidden and refused.
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual(['add_note', 'whoami']);

    // The access token expires (the server's clock moves on): the client's next call gets 401, and
    // the SDK refreshes on its own with the refresh token, which rotates, then retries.
    clock.advance(400);
    expect(resultOf(await client.callTool({ name: 'whoami', arguments: {} }))).toMatchObject({ sub: 'ada' });
    const refreshed = provider.tokens()!;
    expect(provider.tokensSaved).toHaveLength(2);
    expect(refreshed.refresh_token).toMatch(/^twr_/);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    await client.close();

    // Revoke (RFC 7009) the refresh token: the grant ends, the access token too.
    const revoked = await fetch(`${served.base}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refreshed.refresh_token!, client_id: provider.info!.client_id }),
    });
    expect(revoked.status).toBe(200);
    const mcp = await fetch(served.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${refreshed.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(401);
    const refreshAfter = await fetch(`${served.base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshed.refresh_token!, client_id: provider.info!.client_id }),
    });
    expect(refreshAfter.status).toBe(400);
    expect(await refreshAfter.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('serves the metadata at the RFC 8414 and OpenID discovery paths, and the protected resource metadata names the issuer', async () => {
    const prm = (await (await fetch(`${served.base}/.well-known/oauth-protected-resource/mcp`)).json()) as { authorization_servers: string[]; resource: string };
    expect(prm).toMatchObject({ resource: served.mcpUrl, authorization_servers: [served.oauth.issuer] });
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const response = await fetch(`${served.base}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toMatchObject({
        issuer: served.oauth.issuer,
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
        client_id_metadata_document_supported: true,
        registration_endpoint: `${served.base}/register`,
      });
    }
  });
});
