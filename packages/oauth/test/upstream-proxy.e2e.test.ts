import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { ToolLogger } from '@toolwright/core';
import { MemoryOAuthStore, oidcUpstream, type OAuthServerOptions } from '@toolwright/oauth';
import { TestBrowser } from './fixtures/browser';
import { MemoryClientProvider } from './fixtures/clientProvider';
import { CALLBACK, authorizeUrl, pkcePair, registerClient, tokenRequest } from './fixtures/rawFlow';
import { serveOAuth, testClock, type Served } from './fixtures/serveOAuth';
import { signInClient } from './fixtures/signIn';

const UPSTREAM_SECRET = 'upstream-client-secret-for-tests-only';

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
  /** A second instance answering for the same public URL, sharing the store and the secret (as two instances on Redis do). */
  let twin: Served;
  let upstream: { issuer: string; child: ChildProcess };
  const clock = testClock();
  const store = new MemoryOAuthStore({ now: clock.now });
  /** The twin's log (`logger`): what it writes there reaches no console. */
  const twinLines: string[] = [];
  const twinLog: ToolLogger = { debug: () => undefined, info: () => undefined, warn: (m) => void twinLines.push(m), error: (m) => void twinLines.push(m) };
  beforeAll(async () => {
    let shared: Partial<OAuthServerOptions> = {};
    served = await serveOAuth('node', async (base) => {
      upstream = await startUpstream(`${base}/callback`);
      shared = {
        now: clock.now,
        store,
        secret: 'a-test-secret-of-at-least-32-characters',
        upstream: oidcUpstream({
          name: 'corp',
          issuer: upstream.issuer,
          clientId: 'toolwright',
          clientSecret: UPSTREAM_SECRET,
          // offline_access for an upstream refresh token, which OpenID providers grant only with prompt=consent.
          scopes: ['openid', 'email', 'groups', 'offline_access'],
          authorizeParams: { prompt: 'consent' },
        }),
      };
      return shared;
    });
    // The twin's revocation upstream fails (an endpoint that is down): that is logged, and the grant is revoked here all the same.
    const failingRevoke = { ...shared.upstream!, revoke: () => Promise.reject(new Error('the revocation endpoint is down')) };
    twin = await serveOAuth('node', { ...shared, upstream: failingRevoke, issuer: served.oauth.issuer, resource: served.mcpUrl, logger: twinLog });
  }, 30_000);
  afterAll(async () => {
    await served?.close();
    await twin?.close();
    upstream?.child.kill();
  });

  /** Signs an SDK client in through the upstream provider; the claims of its access token (what a tool's ctx.authInfo holds). */
  async function signedInClaims(): Promise<{ claims: Record<string, unknown>; refreshToken: string; clientId: string }> {
    const provider = new MemoryClientProvider(CALLBACK, { client_name: 'Proxy client' });
    const client = await signInClient(served.mcpUrl, provider);
    await client.close();
    const tokens = provider.tokens()!;
    return {
      claims: JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>,
      refreshToken: tokens.refresh_token!,
      clientId: provider.info!.client_id,
    };
  }

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

  it('headless Chromium signs in as a user would: the provider’s login and consent pages, then Toolwright’s consent page by keyboard', async () => {
    const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
    if (!existsSync(executablePath)) throw new Error(`No Chromium at ${executablePath}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH.`);
    const provider = new MemoryClientProvider(CALLBACK, { client_name: 'Browser client' });
    const transport = new StreamableHTTPClientTransport(new URL(served.mcpUrl), { authProvider: provider });
    await expect(new Client({ name: 't', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      // The MCP client's loopback redirect URI: the browser is sent there with the code, as to a desktop client's listener.
      const landed = page.waitForRequest((request) => request.url().startsWith(CALLBACK), { timeout: 20_000 }).then((request) => new URL(request.url()));
      page.setDefaultTimeout(10_000);
      await page.goto(provider.authorizationUrl!.href);
      // The identity provider's own pages (one URL for both): sign in, then allow this server (offline access).
      for (let pages = 0; pages < 4; pages++) {
        const shown = await page.waitForSelector('input[name="login"], form[action$="/authorize/consent"], button.login-submit').catch(async (error: Error) => {
          throw new Error(`${error.message}\nat ${page.url()}: ${(await page.textContent('body'))?.slice(0, 500)}`);
        });
        if ((await shown.evaluate((element) => element.tagName)) === 'FORM') break;
        if (await page.$('input[name="login"]')) {
          await page.fill('input[name="login"]', 'root');
          await page.fill('input[name="password"]', 'any');
        }
        const before = page.url() + (await page.content()).length;
        await page.click('button[type="submit"]');
        // Strings, evaluated in the page (this test's TypeScript has no DOM types).
        await page.waitForFunction(`location.href + document.documentElement.outerHTML.length !== ${JSON.stringify(before)}`).catch(() => undefined);
        await page.waitForLoadState();
      }
      // Toolwright's consent page: the client, the redirect and the scopes, and Allow focused first: Enter allows.
      await page.waitForSelector('form[action$="/authorize/consent"]');
      expect(await page.title()).toBe('Allow Browser client?');
      expect(await page.textContent('main')).toContain(CALLBACK);
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Allow');
      await page.keyboard.press('Enter');
      const callback = await landed;
      expect(callback.searchParams.get('iss')).toBe(served.oauth.issuer);
      await transport.finishAuth(callback.searchParams);
    } finally {
      await browser.close();
    }
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.mcpUrl), { authProvider: provider }));
    expect(JSON.parse(((await client.callTool({ name: 'whoami', arguments: {} })).content[0] as { text: string }).text)).toMatchObject({ sub: 'corp:root' });
    await client.close();
  });

  it('an upstream answer without iss, or with another, is refused: the provider’s metadata promises iss (RFC 9207 §2.4); untouched, it signs in', async () => {
    const metadata = (await (await fetch(`${upstream.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    const tampering: [string, (params: URLSearchParams) => void, RegExp | undefined][] = [
      ['iss removed', (params) => params.delete('iss'), /has no iss, which its metadata promises/],
      ['iss of another provider', (params) => params.set('iss', 'https://attacker.example'), /came from another identity provider/],
      ['untouched', () => {}, undefined],
    ];
    for (const [what, tamper, refusal] of tampering) {
      const clientId = String((await registerClient(served.base)).body.client_id);
      const browser = new TestBrowser();
      // The browser goes through the provider's pages and stops at Toolwright's callback, unvisited.
      const answer = await browser.authorize(authorizeUrl(served.base, { client_id: clientId, code_challenge: pkcePair().challenge }), `${served.base}/callback`);
      expect(answer.searchParams.get('iss')).toBe(upstream.issuer);
      tamper(answer.searchParams);
      if (refusal) {
        const page = await browser.request(answer.href);
        expect({ what, status: page.status, location: page.headers.get('location') }).toEqual({ what, status: 400, location: null });
        expect(await page.text()).toMatch(refusal);
      } else {
        const callback = await browser.authorize(answer.href, CALLBACK);
        expect(callback.searchParams.get('code')).toEqual(expect.any(String));
      }
    }
  });

  // The upstream sign-in's PKCE verifier (and nonce) rested in the store in clear for 10 minutes: whoever read the store (a shared Redis) could redeem an intercepted code.
  it('keeps the pending upstream sign-in sealed in the store: neither its PKCE verifier nor its nonce in clear; the sign-in completes', async () => {
    const clientId = String((await registerClient(served.base)).body.client_id);
    const browser = new TestBrowser();
    // Stop where /authorize sends the browser upstream: the pending sign-in is in the store now.
    const upstreamUrl = await browser.authorize(authorizeUrl(served.base, { client_id: clientId, code_challenge: pkcePair().challenge }), upstream.issuer);
    const [state, nonce, challenge] = ['state', 'nonce', 'code_challenge'].map((name) => upstreamUrl.searchParams.get(name)!);
    expect([state, nonce, challenge].every((value) => value.length > 0)).toBe(true);
    const key = `upstream-state:${createHash('sha256').update(state).digest('base64url')}`;
    const raw = (await store.get(key))!;
    expect(raw).toEqual(expect.any(String));
    // The verifier is 43 base64url characters whose SHA-256 is the challenge sent upstream: no run of 43 characters in the record is.
    const runs = Array.from({ length: Math.max(0, raw.length - 42) }, (_, i) => raw.slice(i, i + 43));
    expect(runs.filter((run) => createHash('sha256').update(run).digest('base64url') === challenge)).toEqual([]);
    expect(raw).not.toContain(nonce);
    // The provider's pages, then Toolwright's callback (which opens the record) and consent page: the client gets its code.
    const callback = await browser.authorize(upstreamUrl.href, CALLBACK);
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('refuses, with a page, a pending upstream sign-in whose sealed record was altered in the store', async () => {
    const clientId = String((await registerClient(served.base)).body.client_id);
    const browser = new TestBrowser();
    const upstreamUrl = await browser.authorize(authorizeUrl(served.base, { client_id: clientId, code_challenge: pkcePair().challenge }), upstream.issuer);
    const key = `upstream-state:${createHash('sha256').update(upstreamUrl.searchParams.get('state')!).digest('base64url')}`;
    const raw = (await store.get(key))!;
    await store.set(key, `${raw.slice(0, -2)}${raw.endsWith('AA') ? 'BB' : 'AA'}`, 600);
    const answer = await browser.authorize(upstreamUrl.href, `${served.base}/callback`);
    const page = await browser.request(answer.href);
    expect({ status: page.status, location: page.headers.get('location') }).toEqual({ status: 400, location: null });
    expect(await page.text()).toContain('This sign-in could not be read here');
  });

  // The tests below move the clock past the upstream tokens' expiry: sign-ins (whose ID tokens must look current) come before.
  it('refreshes an expired upstream access token once, however many calls on both instances ask at once', async () => {
    const { claims } = await signedInClaims();
    const first = (await served.oauth.upstreamTokens({ extra: { claims } }))!;
    expect(first.refresh_token).toEqual(expect.any(String));
    expect(first.expires_at).toBeGreaterThan(clock.now() / 1000);
    // Not stale yet: the same tokens, nothing refreshed.
    expect((await twin.oauth.upstreamTokens({ extra: { claims } }))!.access_token).toBe(first.access_token);

    clock.advance(first.expires_in! + 1);
    const racing = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? twin : served).oauth.upstreamTokens({ extra: { claims } })));
    const accessTokens = new Set(racing.map((tokens) => tokens!.access_token));
    // Each refresh at the provider issues a new access token: one token for all ten means one refresh.
    expect(accessTokens.size).toBe(1);
    const fresh = racing[0]!;
    expect(fresh.access_token).not.toBe(first.access_token);
    expect(fresh.expires_at).toBeGreaterThan(clock.now() / 1000);
    expect((await fetch(`${upstream.issuer}/me`, { headers: { authorization: `Bearer ${fresh.access_token}` } })).status).toBe(200);
    // Kept for the grant: a later call reads the refreshed tokens.
    expect((await served.oauth.upstreamTokens({ extra: { claims } }))!.access_token).toBe(fresh.access_token);
  });

  it('a refresh the provider refuses ends the grant here too: the client signs in again', async () => {
    const { claims, refreshToken, clientId } = await signedInClaims();
    const tokens = (await served.oauth.upstreamTokens({ extra: { claims } }))!;
    // The user (or an admin) revokes the upstream refresh token at the provider.
    const revoked = await fetch(`${upstream.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token!, token_type_hint: 'refresh_token', client_id: 'toolwright', client_secret: UPSTREAM_SECRET }),
    });
    expect(revoked.status).toBe(200);
    clock.advance(tokens.expires_in! + 1);
    const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
    expect(await twin.oauth.upstreamTokens({ extra: { claims } })).toBeUndefined();
    errors.mockRestore();
    // In the twin's logger, not on the console.
    expect(twinLines).toEqual([
      expect.stringMatching(/corp refused to refresh a grant's upstream tokens: the grant is revoked/),
      'toolwright oauth: revoking the upstream tokens of a grant at corp failed: the revocation endpoint is down',
    ]);
    expect(errors).not.toHaveBeenCalled();
    expect((await tokenRequest(served.base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken })).body.error).toBe('invalid_grant');
  });
});
