/**
 * Pins what the guide pages on OAuth sign-in (and its provider pages), migrating, deployment and
 * internals say a client sees, for the statements no other test holds the page to. The OAuth
 * cases serve `createApp({ oauth })` on 127.0.0.1 and play the client and the browser over real
 * HTTP; the others drive an app through the real SDK client.
 */
import 'reflect-metadata';
import { Server } from '@modelcontextprotocol/server';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  auth0Upstream,
  createOAuthServer,
  entraUpstream,
  githubUpstream,
  googleUpstream,
  keycloakUpstream,
  oidcUpstream,
  oktaUpstream,
  type OAuthServerOptions,
  type SignInOutcome,
} from '@toolwright/oauth';
import { Client as SdkV1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ShopTools } from '../snippets/migrating/shop.tools';
import { createServer as createSdkServer } from '../snippets/migrating/sdk-server';
import { TestBrowser } from '../../packages/oauth/test/fixtures/browser';
import { NotesTools } from '../../packages/oauth/test/fixtures/notesTools';
import { CALLBACK, authorizeUrl, pkcePair, registerClient, tokenRequest } from '../../packages/oauth/test/fixtures/rawFlow';
import { onFreePort } from '../../packages/server/test/fixtures/onFreePort';

const SECRET = 'a-docs-test-secret-of-at-least-32-characters';
const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };

/** `createApp({ oauth })` listening on a port fixed before it starts (the issuer names it). */
async function serveWithOAuth(options: Partial<OAuthServerOptions> = {}): Promise<{ base: string; mcpUrl: string; close(): Promise<void> }> {
  return onFreePort(async (port) => {
    const base = `http://127.0.0.1:${port}`;
    const oauth = await createOAuthServer({
      issuer: base,
      resource: `${base}/mcp`,
      scopes: ['notes:read', 'notes:write'],
      secret: SECRET,
      signIn: () => ({ subject: 'ada', roles: ['reader'] }),
      ...options,
    });
    const app = await createApp({ name: 'notes', version: '1.0.0', tools: [NotesTools], oauth });
    const listener = await app.listen({ transport: 'http', host: '127.0.0.1', port, ...quiet });
    return { base, mcpUrl: `${base}/mcp`, close: () => listener.close() };
  });
}

/** Registers a client, walks the browser through sign-in and consent, and trades the code. */
async function signIn(base: string, params: Record<string, string> = {}, registration: Record<string, unknown> = {}) {
  const clientId = String((await registerClient(base, registration)).body.client_id);
  const { verifier, challenge } = pkcePair();
  const callback = await new TestBrowser().authorize(authorizeUrl(base, { client_id: clientId, code_challenge: challenge, ...params }), CALLBACK);
  const code = callback.searchParams.get('code');
  const tokens = code ? await tokenRequest(base, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK, client_id: clientId }) : undefined;
  return { callback, tokens };
}

const jwtPart = (token: string, index: 0 | 1) => JSON.parse(Buffer.from(token.split('.')[index]!, 'base64url').toString()) as Record<string, unknown>;

describe('OAuth page: the options of createOAuthServer', () => {
  const base = { issuer: 'https://mcp.example.com', resource: 'https://mcp.example.com/mcp', signIn: () => ({ subject: 'ada' }) };
  const refusal = (options: OAuthServerOptions) =>
    createOAuthServer(options).then(
      () => 'started',
      (error: Error) => `${error.constructor.name}: ${error.message}`,
    );

  it('refuses at start an http issuer off this machine, a secret under 32 characters, and signIn with upstream', async () => {
    expect(await refusal({ ...base, issuer: 'http://mcp.example.com' })).toMatch(/^ConfigError: .*issuer must be an https URL \(http only on localhost\)/);
    expect(await refusal({ ...base, issuer: 'http://127.0.0.1:3000' })).toBe('started');
    expect(await refusal({ ...base, secret: 'x'.repeat(31) })).toMatch(/^ConfigError: Toolwright oauth: secret must be a string of at least 32 characters; the one given has 31\./);
    expect(await refusal({ ...base, secret: 'x'.repeat(32) })).toBe('started');
    const upstream = oidcUpstream({ issuer: 'https://id.example.com', clientId: 'c', clientSecret: 's' });
    expect(await refusal({ ...base, secret: SECRET, upstream })).toMatch(/^ConfigError: .*set signIn or upstream, not both/);
  });
});

describe('OAuth page: a client signing in', () => {
  let served: Awaited<ReturnType<typeof serveWithOAuth>>;
  beforeAll(async () => {
    served = await serveWithOAuth();
  });
  afterAll(() => served?.close());

  it('finds the issuer from a 401 and the protected resource metadata, and the metadata says what step 3 says', async () => {
    const unauthorized = await fetch(served.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toContain(`Bearer resource_metadata="${served.base}/.well-known/oauth-protected-resource/mcp"`);
    const resource = (await (await fetch(`${served.base}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({ resource: served.mcpUrl, authorization_servers: [served.base] });
    const metadata = (await (await fetch(`${served.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: served.base,
      client_id_metadata_document_supported: true,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      registration_endpoint: `${served.base}/register`,
      scopes_supported: ['notes:read', 'notes:write'],
    });
    expect(await (await fetch(`${served.base}/.well-known/openid-configuration`)).json()).toEqual(metadata);
  });

  it('issues a 5-minute ES256 at+jwt for the MCP URL and a refresh token; a client that asked for no scope and registered none gets all of them', async () => {
    const { callback, tokens } = await signIn(served.base);
    expect(callback.searchParams.get('iss')).toBe(served.base);
    expect(callback.searchParams.get('state')).toBe('st-1');
    expect(tokens!.status).toBe(200);
    const body = tokens!.body as { access_token: string; refresh_token?: string; expires_in: number; token_type: string; scope: string };
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 300, scope: 'notes:read notes:write', refresh_token: expect.any(String) });
    expect(jwtPart(body.access_token, 0)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const claims = jwtPart(body.access_token, 1) as { iss: string; aud: unknown; sub: string; exp: number; iat: number; roles: string[] };
    expect(claims).toMatchObject({ iss: served.base, aud: served.mcpUrl, sub: 'ada', roles: ['reader'] });
    expect(claims.exp - claims.iat).toBe(300);
    // The refresh token rotates: each use gets a new one.
    const refreshed = await tokenRequest(served.base, { grant_type: 'refresh_token', refresh_token: body.refresh_token!, client_id: jwtPart(body.access_token, 1).client_id as string });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toEqual(expect.any(String));
    expect(refreshed.body.refresh_token).not.toBe(body.refresh_token);
  });

  it('grants what the client asked for within the scopes signIn returns, and an unknown scope is invalid_scope', async () => {
    const limited = await serveWithOAuth({ signIn: () => ({ subject: 'bo', scopes: ['notes:read'] }) });
    try {
      const { tokens } = await signIn(limited.base, { scope: 'notes:read notes:write' });
      expect(tokens!.body.scope).toBe('notes:read');
      const { callback } = await signIn(limited.base, { scope: 'notes:delete' });
      expect(callback.searchParams.get('error')).toBe('invalid_scope');
      expect(callback.searchParams.get('iss')).toBe(limited.base);
    } finally {
      await limited.close();
    }
  });

  it('sends { deny: true } back to the client as access_denied, with state and iss', async () => {
    const denying = await serveWithOAuth({ signIn: (): SignInOutcome => ({ deny: true, reason: 'not a member' }) });
    try {
      const { callback, tokens } = await signIn(denying.base);
      expect(tokens).toBeUndefined();
      expect(Object.fromEntries(callback.searchParams)).toMatchObject({ error: 'access_denied', error_description: 'not a member', state: 'st-1', iss: denying.base });
    } finally {
      await denying.close();
    }
  });

  it('registration: false takes /register out of the metadata and off the server', async () => {
    const closed = await serveWithOAuth({ registration: false });
    try {
      const metadata = (await (await fetch(`${closed.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
      expect(metadata).not.toHaveProperty('registration_endpoint');
      expect((await registerClient(closed.base)).status).toBe(404);
    } finally {
      await closed.close();
    }
  });
});

describe('OAuth page: rate limits', () => {
  it('limits the upstream callback with /authorize: past the burst, a 429 page with Retry-After', async () => {
    const oauth = await createOAuthServer({
      issuer: 'https://mcp.example.com',
      resource: 'https://mcp.example.com/mcp',
      secret: SECRET,
      upstream: oidcUpstream({ issuer: 'https://id.example.com', clientId: 'c', clientSecret: 's' }),
      rateLimit: { authorize: { burst: 2, perMinute: 1 }, clientAddressOf: () => '203.0.113.9' },
    });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (const path of ['/authorize', '/callback', '/callback']) {
      last = (await oauth.handle(new Request(`https://mcp.example.com${path}?state=x`)))!;
      statuses.push(last.status);
    }
    expect(statuses).toEqual([400, 400, 429]);
    expect(last!.headers.get('retry-after')).toEqual(expect.stringMatching(/^\d+$/));
    expect(last!.headers.get('content-type')).toContain('text/html');
  });
});

describe('OAuth provider pages: what each preset sets', () => {
  const credentials = { clientId: 'c', clientSecret: 's' };

  it('discovers from the issuer each page names, asks for the scopes it lists, and takes the subject from the claim it names', () => {
    const oidc = ['openid', 'email', 'profile'];
    expect(googleUpstream(credentials)).toMatchObject({ name: 'google', issuer: 'https://accounts.google.com', scopes: oidc, authorizeParams: { access_type: 'offline', prompt: 'consent' } });
    expect(entraUpstream({ ...credentials, tenant: 'tid' })).toMatchObject({
      name: 'entra',
      issuer: 'https://login.microsoftonline.com/tid/v2.0',
      scopes: [...oidc, 'offline_access'],
      subjectClaim: 'oid',
    });
    expect(auth0Upstream({ ...credentials, domain: 'example.eu.auth0.com' })).toMatchObject({ name: 'auth0', issuer: 'https://example.eu.auth0.com/', scopes: [...oidc, 'offline_access'] });
    expect(oktaUpstream({ ...credentials, domain: 'example.okta.com' })).toMatchObject({
      name: 'okta',
      issuer: 'https://example.okta.com/oauth2/default',
      scopes: [...oidc, 'groups', 'offline_access'],
    });
    expect(oktaUpstream({ ...credentials, domain: 'example.okta.com', authorizationServer: null }).issuer).toBe('https://example.okta.com');
    expect(oktaUpstream({ ...credentials, domain: 'example.okta.com', authorizationServer: 'mcp' }).issuer).toBe('https://example.okta.com/oauth2/mcp');
    expect(keycloakUpstream({ ...credentials, baseUrl: 'https://sso.example.com/', realm: 'staff' })).toMatchObject({ name: 'keycloak', issuer: 'https://sso.example.com/realms/staff', scopes: oidc });
    const github = githubUpstream(credentials);
    expect(github).toMatchObject({ name: 'github', userinfoEndpoint: 'https://api.github.com/user', scopes: ['read:user', 'user:email'], subjectClaim: 'id', revoke: expect.any(Function) });
    expect(github.issuer).toBeUndefined();
    for (const preset of [
      googleUpstream(credentials),
      auth0Upstream({ ...credentials, domain: 'd' }),
      oktaUpstream({ ...credentials, domain: 'd' }),
      keycloakUpstream({ ...credentials, baseUrl: 'https://k', realm: 'r' }),
    ]) {
      expect(preset.subjectClaim ?? 'sub').toBe('sub');
      expect(preset.groupsClaim ?? 'groups').toBe('groups');
    }
    // Each is a plain object: the overrides the pages show replace the preset's fields.
    expect(githubUpstream({ ...credentials, scopes: ['read:user', 'user:email', 'repo'] }).scopes).toEqual(['read:user', 'user:email', 'repo']);
    expect(entraUpstream({ ...credentials, tenant: 't', groupsClaim: 'roles' }).groupsClaim).toBe('roles');
  });
});

class Failing {
  @Tool({ description: 'Fails with a bug.' })
  broken(@Param('id') id: string): string {
    throw new TypeError(`cannot read the order ${id}: secret-detail`);
  }
}

describe('Migrating page', () => {
  it('turns an uncaught exception into a generic isError result, the stack on stderr and not on the wire', async () => {
    const written: string[] = [];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    const app = await createApp({ name: 'docs', version: '1.0.0', tools: [Failing] });
    const client = await createTestClient(app);
    try {
      const result = (await client.callTool({ name: 'broken', arguments: { id: '7' } })) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result)).not.toContain('secret-detail');
      expect(written.join('')).toContain('secret-detail');
      expect(written.join('')).toMatch(/at .*broken/);
    } finally {
      await client.close();
      stderr.mockRestore();
    }
  });

  it('answers the shop example the same way from both servers, for an item named after a member of every object too', async () => {
    const ours = await createTestClient(await createApp({ name: 'shop', version: '1.0.0', tools: [ShopTools] }));
    const theirs = new SdkV1Client({ name: 'docs', version: '1.0.0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([createSdkServer().connect(b), theirs.connect(a)]);
    try {
      for (const item of ['apple', 'pear', 'constructor', 'toString', '__proto__']) {
        const mine = (await ours.callTool({ name: 'check_stock', arguments: { item } })) as { isError?: boolean; content: { text: string }[] };
        const sdk = (await theirs.callTool({ name: 'check_stock', arguments: { item } })) as { isError?: boolean; content: { text: string }[] };
        expect([item, mine.isError ?? false, mine.content[0]!.text]).toEqual([item, sdk.isError ?? false, sdk.content[0]!.text]);
        expect(mine.content[0]!.text).toBe(item === 'apple' ? '3' : `Unknown item '${item}'.`);
      }
    } finally {
      await ours.close();
      await theirs.close();
    }
  });

  it('app.createServer() returns the SDK v2 Server at runtime', async () => {
    const app: App = await createApp({ name: 'docs', version: '1.0.0', tools: [Failing] });
    expect(app.createServer()).toBeInstanceOf(Server);
  });
});

/** `started` resolves once the running call has begun; `release()` lets it finish. */
const slowTools = { release: () => {}, started: Promise.resolve(), begin: () => {} };

class Slow {
  @Tool({ description: 'Waits until released.' })
  async wait(): Promise<string> {
    const released = new Promise<void>((resolve) => (slowTools.release = resolve));
    slowTools.begin();
    await released;
    return 'done';
  }
}

class Reporting {
  @Tool({ description: 'Reports progress twice.' })
  async steps(@Ctx() ctx: ToolContext): Promise<string> {
    await ctx.progress(1, 2);
    await ctx.progress(2, 2);
    return 'stepped';
  }
}

describe('Deployment page: production settings', () => {
  it('warns on stderr when it binds 0.0.0.0 with neither allowedHosts nor auth, and not with allowedHosts', async () => {
    const written: string[] = [];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    try {
      const app = await createApp({ name: 'docs', version: '1.0.0', tools: [Reporting] });
      const open = await app.listen({ transport: 'http', host: '0.0.0.0', port: 0, ...quiet });
      await open.close();
      expect(written.join('')).toContain('listening on 0.0.0.0, beyond this machine, with no allowedHosts and no auth');
      written.length = 0;
      const named = await app.listen({ transport: 'http', host: '0.0.0.0', port: 0, ...quiet, allowedHosts: ['notes.example.com'] });
      await named.close();
      expect(written.join('')).not.toContain('beyond this machine');
    } finally {
      stderr.mockRestore();
    }
  });

  it("delivers a call's progress on its response stream in stateless mode, where GET has no stream", async () => {
    const app = await createApp({ name: 'docs', version: '1.0.0', tools: [Reporting] });
    const listener = await app.listen({ transport: 'http', port: 0, ...quiet, stateless: true });
    const client = new Client({ name: 'docs', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
      const seen: number[] = [];
      const result = (await client.callTool({ name: 'steps', arguments: {} }, { onprogress: (p) => seen.push(p.progress) })) as { content: { text: string }[] };
      expect(result.content[0]!.text).toBe('stepped');
      expect(seen).toEqual([1, 2]);
      expect((await fetch(listener.url, { headers: { accept: 'text/event-stream' } })).status).toBe(405);
    } finally {
      await client.close();
      await listener.close();
    }
  });
});

describe('Deployment page: sessions without a cluster', () => {
  it('answers a session opened on one instance with 404 on another', async () => {
    const instances = [
      await (await createApp({ name: 'docs', version: '1.0.0', tools: [Reporting] })).listen({ transport: 'http', port: 0, ...quiet }),
      await (await createApp({ name: 'docs', version: '1.0.0', tools: [Reporting] })).listen({ transport: 'http', port: 0, ...quiet }),
    ];
    const transport = new StreamableHTTPClientTransport(new URL(instances[0]!.url));
    const client = new Client({ name: 'docs', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(transport.sessionId).toEqual(expect.any(String));
      const elsewhere = await fetch(instances[1]!.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(elsewhere.status).toBe(404);
    } finally {
      await client.close();
      for (const instance of instances) await instance.close();
    }
  });
});

describe('Deployment page: shutting down', () => {
  it('finishes a running call, answers new requests and /readyz with 503 while it drains, then closes', async () => {
    const app = await createApp({ name: 'docs', version: '1.0.0', tools: [Slow] });
    const listener = await app.listen({ transport: 'http', port: 0, ...quiet, stateless: true });
    const call = (id: number) =>
      fetch(listener.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wait', arguments: {} } }),
      });
    slowTools.started = new Promise<void>((resolve) => (slowTools.begin = resolve));
    const running = call(1);
    await slowTools.started;
    const closed = listener.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // A new connection is still taken while the running call drains; what it asks is refused.
    expect((await fetch(new URL('/readyz', listener.url), { headers: { connection: 'close' } })).status).toBe(503);
    const refused = await call(2);
    expect(refused.status).toBe(503);
    slowTools.release();
    const answered = await running;
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain('done');
    await closed;
    await expect(fetch(new URL('/healthz', listener.url))).rejects.toThrow();
  });
});
