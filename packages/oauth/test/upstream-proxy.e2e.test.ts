import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { oidcUpstream } from '@toolwright/oauth';
import { TestBrowser } from './fixtures/browser';
import { MemoryClientProvider } from './fixtures/clientProvider';
import { CALLBACK } from './fixtures/rawFlow';
import { serveOAuth, type Served } from './fixtures/serveOAuth';

/** Starts the real OpenID provider (oidc-provider) in its own process; resolves with its issuer URL. */
function startUpstream(callback: string): Promise<{ issuer: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(__dirname, 'fixtures', 'upstream-provider.mjs'), callback], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /url=(\S+)/.exec(out);
      if (match) resolve({ issuer: match[1]!, child });
    });
    child.stderr!.resume();
    child.once('exit', (code) => reject(new Error(`the upstream provider exited ${code}: ${out}`)));
  });
}

/**
 * The proxy: an MCP client signs in through Toolwright, which sends the browser to a real
 * OpenID Connect provider (oidc-provider, started here on 127.0.0.1), exchanges its code, maps
 * the upstream groups to roles, keeps the upstream tokens to itself, and revokes them upstream
 * when the Toolwright grant is revoked.
 */
describe('sign-in through an upstream OpenID Connect provider', () => {
  let served: Served;
  let upstream: { issuer: string; child: ChildProcess };
  beforeAll(async () => {
    served = await serveOAuth('node', async (base) => {
      upstream = await startUpstream(`${base}/callback`);
      return {
        secret: 'a-test-secret-of-at-least-32-characters',
        upstream: oidcUpstream({ name: 'corp', issuer: upstream.issuer, clientId: 'toolwright', clientSecret: 'upstream-client-secret-for-tests-only', scopes: ['openid', 'email', 'groups'] }),
      };
    });
  }, 30_000);
  afterAll(async () => {
    await served.close();
    upstream?.child.kill();
  });

  it('signs in, maps groups to roles, never hands out the upstream tokens, and revokes them upstream', async () => {
    const provider = new MemoryClientProvider(CALLBACK, { client_name: 'Proxy client' });
    const transport = new StreamableHTTPClientTransport(new URL(served.mcpUrl), { authProvider: provider });
    await expect(new Client({ name: 't', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const browser = new TestBrowser();
    const callback = await browser.authorize(provider.authorizationUrl!.href, 'http://127.0.0.1:8976/');
    // The browser went to the upstream provider and back through Toolwright's callback.
    expect(browser.visited.some((url) => url.startsWith(upstream.issuer))).toBe(true);
    expect(browser.visited.some((url) => url.startsWith(`${served.base}/callback`))).toBe(true);
    await transport.finishAuth(callback.searchParams);

    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.mcpUrl), { authProvider: provider }));
    const who = JSON.parse(((await client.callTool({ name: 'whoami', arguments: {} })).content[0] as { text: string }).text) as Record<string, unknown>;
    expect(who).toMatchObject({ sub: 'corp:root' });
    // The upstream groups became roles: the admin-only tool is there and runs.
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['add_note', 'purge', 'whoami']);
    expect((await client.callTool({ name: 'purge', arguments: {} })).content).toEqual([{ type: 'text', text: 'purged' }]);
    await client.close();

    // What the MCP client holds is Toolwright's token only; the upstream one stays on the server.
    const tokens = provider.tokens()!;
    const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    const upstreamTokens = await served.oauth.upstreamTokens({ extra: { claims } });
    expect(upstreamTokens?.access_token).toEqual(expect.any(String));
    expect(JSON.stringify(tokens)).not.toContain(upstreamTokens!.access_token);
    expect(JSON.stringify(claims)).not.toContain(upstreamTokens!.access_token);
    const userinfo = () => fetch(`${upstream.issuer}/me`, { headers: { authorization: `Bearer ${upstreamTokens!.access_token}` } });
    expect((await userinfo()).status).toBe(200);

    // Revoking the Toolwright refresh token revokes the grant, and the upstream token with it.
    const revoked = await fetch(`${served.base}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token!, client_id: provider.info!.client_id }),
    });
    expect(revoked.status).toBe(200);
    expect((await userinfo()).status).toBe(401);
    expect(await served.oauth.upstreamTokens({ extra: { claims } })).toBeUndefined();
  });
});
