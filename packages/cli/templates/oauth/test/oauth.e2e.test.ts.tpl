import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import type { Listener } from '@toolwright/server';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { {{appFactory}} } from '../src/app';

const CALLBACK = 'http://127.0.0.1:8976/callback';
type Tokens = Awaited<ReturnType<OAuthClientProvider['tokens']>>;
type Info = Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;

/** What a desktop MCP client keeps: its registration, tokens and PKCE verifier; it records where it would open the browser. */
class ClientState implements OAuthClientProvider {
  info: Info;
  saved: Tokens;
  verifier = '';
  opened: URL | undefined;
  readonly redirectUrl = CALLBACK;
  readonly clientMetadata = { client_name: 'Notes test client', redirect_uris: [CALLBACK], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  clientInformation = () => this.info;
  saveClientInformation = (info: NonNullable<Info>) => void (this.info = info);
  tokens = () => this.saved;
  saveTokens = (tokens: NonNullable<Tokens>) => void (this.saved = tokens);
  redirectToAuthorization = (url: URL) => void (this.opened = url);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => this.verifier;
  // Which authorization server the sign-in began with: the callback is checked against it.
  discovery: Parameters<NonNullable<OAuthClientProvider['saveDiscoveryState']>>[0] | undefined;
  saveDiscoveryState = (state: NonNullable<ClientState['discovery']>) => void (this.discovery = state);
  discoveryState = () => this.discovery;
}

/** The user's browser: opens the authorization URL, answers the consent page with Allow, and returns where it was sent back. */
async function allowInBrowser(url: URL): Promise<URL> {
  const page = await fetch(url, { redirect: 'manual' });
  const html = await page.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no consent form at ${url.href}: ${html.slice(0, 200)}`);
  const fields = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [name, value]));
  const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const target = new URL(action.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))), url);
  const answer = await fetch(target, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: target.origin },
    body: new URLSearchParams({ ...fields, decision: 'allow' }),
  });
  return new URL(answer.headers.get('location')!);
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('{{serverName}}: MCP clients sign in with OAuth, then call the tools their scopes allow', () => {
  let listener: Listener;
  let base: string;
  beforeAll(async () => {
    // The issuer URL, in every token, holds the port, so the port is picked before the server
    // listens; another process may take it meanwhile, and then the next try picks another.
    for (let tries = 1; ; tries++) {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      const app = await {{appFactory}}(base, { DEV_USER: 'ada' });
      try {
        listener = await app.listen({ transport: 'http', port, exitOnSignal: false, requestLogLevel: 'silent' });
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || tries === 5) throw error;
      }
    }
  });
  afterAll(() => listener.close());

  it('refuses a call without a token, naming where to sign in', async () => {
    const response = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(response.status).toBe(401);
    const metadata = (await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()) as { authorization_servers: string[] };
    expect(metadata.authorization_servers).toEqual([base]);
  });

  it('a real MCP client registers, signs in with PKCE, and adds and lists notes as the signed-in user', async () => {
    const state = new ClientState();
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: state });
    await expect(new Client({ name: 'notes-test', version: '1.0.0' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const callback = await allowInBrowser(state.opened!);
    await transport.finishAuth(callback.searchParams);

    const client = new Client({ name: 'notes-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: state }));
    const text = (result: Awaited<ReturnType<Client['callTool']>>) => JSON.parse((result.content as { text: string }[])[0].text) as unknown;
    expect(text(await client.callTool({ name: 'whoami', arguments: {} }))).toMatchObject({ user: 'ada', scopes: ['notes:read', 'notes:write'] });
    expect(text(await client.callTool({ name: 'add_note', arguments: { text: 'Ship it' } }))).toMatchObject({ owner: 'ada', text: 'Ship it' });
    expect(text(await client.callTool({ name: 'list_notes', arguments: {} }))).toEqual({ notes: [{ id: 1, owner: 'ada', text: 'Ship it' }] });
    await client.close();
  });

  it('fails closed: no development sign-in off this machine, no half-configured OpenID Connect provider', async () => {
    await expect({{appFactory}}('https://mcp.example.com', {})).rejects.toThrow(/is not on this machine, and no sign-in is set up/);
    await expect({{appFactory}}(base, { OIDC_ISSUER: 'https://accounts.example.com' })).rejects.toThrow(/OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are not set/);
  });
});
